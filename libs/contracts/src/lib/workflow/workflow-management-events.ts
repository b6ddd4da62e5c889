import { z } from 'zod';
import { eventContract, eventFamily } from '../messaging/event-contract';

const id = z.string().min(1);
const uuid = z.string().uuid();

/** A legacy instance was imported (the tenant is the one the import named). Its open tasks each also have a `workflow.task.created`. */
const instanceImported = z.object({
  tenantId: id,
  instanceId: uuid,
  sourceId: id,
  definitionKey: id,
  definitionId: uuid,
  businessKey: id,
  initiator: id,
  status: id,
  tasks: z.number().int().nonnegative(),
  by: id,
});
/** A definition version was deleted; `forced`: instances still running on it were terminated and the binding moved. */
const definitionDeleted = z.object({
  tenantId: id,
  definitionId: uuid,
  key: id,
  version: z.number().int().positive(),
  forced: z.boolean(),
  terminatedInstances: z.array(uuid),
  /** The key's binding after the deletion: null when the key has no active version any more. */
  activeDefinitionId: uuid.nullable(),
  previousDefinitionId: uuid.nullable(),
  by: id,
});
/** A terminal instance and its tasks were deleted. */
const instanceDeleted = z.object({
  tenantId: id,
  instanceId: uuid,
  definitionKey: id,
  businessKey: id,
  status: id,
  tasks: z.number().int().nonnegative(),
  by: id,
});
/** The seats of one approval node visit were re-based on its assignees as resolved now (opened tasks also have a `workflow.task.created`). */
const candidatesRefreshed = z.object({
  tenantId: id,
  instanceId: uuid,
  nodeKey: id,
  visit: z.number().int().positive(),
  added: z.array(id),
  removed: z.array(id),
  openedTasks: z.array(uuid),
  cancelledTasks: z.array(uuid),
  by: id,
});
export type InstanceImportedPayload = z.infer<typeof instanceImported>;
export type DefinitionDeletedPayload = z.infer<typeof definitionDeleted>;
export type InstanceDeletedPayload = z.infer<typeof instanceDeleted>;
export type CandidatesRefreshedPayload = z.infer<typeof candidatesRefreshed>;

/**
 * The `workflow.management.*` events of workflow-engine's management routes (audited administrative
 * changes; libs/services/workflow-engine/docs/management.md). Named apart from `workflow.instance.*`,
 * whose consumers follow an instance's life: an imported instance did not start here.
 */
export const WorkflowManagementEvents = {
  instanceImported: eventContract('workflow.management.instance-imported', instanceImported),
  definitionDeleted: eventContract('workflow.management.definition-deleted', definitionDeleted),
  instanceDeleted: eventContract('workflow.management.instance-deleted', instanceDeleted),
  candidatesRefreshed: eventContract('workflow.management.candidates-refreshed', candidatesRefreshed),
} as const;

export const WORKFLOW_MANAGEMENT_EVENT_FAMILY = eventFamily('workflow.management.*', WorkflowManagementEvents);

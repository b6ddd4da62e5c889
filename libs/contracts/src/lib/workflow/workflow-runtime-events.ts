import { z } from 'zod';
import { eventContract } from '../messaging/event-contract';

const instanceStarted = z.object({
  tenantId: z.string().min(1),
  instanceId: z.string().uuid(),
  definitionKey: z.string().min(1),
  definitionId: z.string().uuid(),
  businessKey: z.string().min(1),
  initiator: z.string().min(1),
});
const taskCreated = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  visit: z.number().int().positive(),
  assignee: z.string().min(1),
});
const taskCompleted = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  decision: z.enum(['Approved', 'Rejected']),
  decidedBy: z.string().min(1),
});
const instanceCompleted = z.object({
  tenantId: z.string().min(1),
  instanceId: z.string().uuid(),
  definitionKey: z.string().min(1),
  businessKey: z.string().min(1),
  status: z.enum(['Approved', 'Rejected']),
});
const ccNotified = z.object({
  tenantId: z.string().min(1),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  recipients: z.array(z.string()),
});
const instanceStateChanged = z.object({
  tenantId: z.string().min(1),
  instanceId: z.string().uuid(),
  definitionKey: z.string().min(1),
  businessKey: z.string().min(1),
  from: z.string().min(1),
  to: z.string().min(1),
  by: z.string().min(1),
  reason: z.string().nullable(),
});
const priorityChanged = z.object({
  tenantId: z.string().min(1),
  instanceId: z.string().uuid(),
  from: z.number().int(),
  to: z.number().int(),
  by: z.string().min(1),
});
const taskReminded = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  assignee: z.string().min(1),
  by: z.string().min(1),
});
const taskTransferred = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  newTaskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  from: z.string().min(1),
  to: z.string().min(1),
});
const taskDelegated = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  newTaskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  from: z.string().min(1),
  to: z.string().min(1),
});
const taskReturned = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  newTaskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  from: z.string().min(1),
  to: z.string().min(1),
  decision: z.enum(['Approved', 'Rejected']),
});
const participantsAdded = z.object({
  tenantId: z.string().min(1),
  taskId: z.string().uuid(),
  instanceId: z.string().uuid(),
  nodeKey: z.string().min(1),
  position: z.enum(['before', 'after', 'parallel']),
  subjects: z.array(z.string().min(1)).min(1),
  by: z.string().min(1),
});
export type InstanceStartedPayload = z.infer<typeof instanceStarted>;
export type InstanceStateChangedPayload = z.infer<typeof instanceStateChanged>;
export type TaskCompletedPayload = z.infer<typeof taskCompleted>;
export type CcNotifiedPayload = z.infer<typeof ccNotified>;
export type TaskCreatedPayload = z.infer<typeof taskCreated>;
export type InstanceCompletedPayload = z.infer<typeof instanceCompleted>;

/**
 * The `workflow.instance.*`, `workflow.task.*` and `workflow.cc.*` events workflow-engine's runtime
 * publishes through its outbox, in the transaction of the change (libs/services/workflow-engine/docs/runtime.md).
 */
export const WorkflowRuntimeEvents = {
  instanceStarted: eventContract('workflow.instance.started', instanceStarted),
  instanceCompleted: eventContract('workflow.instance.completed', instanceCompleted),
  taskCreated: eventContract('workflow.task.created', taskCreated),
  taskCompleted: eventContract('workflow.task.completed', taskCompleted),
  ccNotified: eventContract('workflow.cc.notified', ccNotified),
  instanceWithdrawn: eventContract('workflow.instance.withdrawn', instanceStateChanged),
  instanceTerminated: eventContract('workflow.instance.terminated', instanceStateChanged),
  instanceCancelled: eventContract('workflow.instance.cancelled', instanceStateChanged),
  instanceSuspended: eventContract('workflow.instance.suspended', instanceStateChanged),
  instanceResumed: eventContract('workflow.instance.resumed', instanceStateChanged),
  instanceReturned: eventContract('workflow.instance.returned', instanceStateChanged),
  instanceResubmitted: eventContract('workflow.instance.resubmitted', instanceStateChanged),
  priorityChanged: eventContract('workflow.instance.priority-changed', priorityChanged),
  taskTransferred: eventContract('workflow.task.transferred', taskTransferred),
  taskReminded: eventContract('workflow.task.reminded', taskReminded),
  taskDelegated: eventContract('workflow.task.delegated', taskDelegated),
  taskReturned: eventContract('workflow.task.returned', taskReturned),
  participantsAdded: eventContract('workflow.task.participants-added', participantsAdded),
} as const;

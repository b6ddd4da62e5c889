import { z } from 'zod';
import { eventContract, eventFamily } from '../messaging/event-contract';

const definitionPublished = z.object({
  tenantId: z.string().min(1),
  key: z.string().min(1),
  definitionId: z.string().uuid(),
  version: z.number().int().positive(),
  checksum: z.string(),
  /** `publish` (draft or deployments route) or `legacy-deploy` (the snapshot route). */
  source: z.enum(['publish', 'legacy-deploy']),
  /** The version it replaced as active, absent on a key's first version. */
  previousDefinitionId: z.string().uuid().nullable(),
  publishedBy: z.string().min(1),
});
export type DefinitionPublishedPayload = z.infer<typeof definitionPublished>;

/**
 * The `workflow.definition.*` events workflow-engine publishes through its outbox (the
 * webhook-dispatcher will consume `workflow.*`).
 */
export const WorkflowDefinitionEvents = {
  published: eventContract('workflow.definition.published', definitionPublished),
} as const;

export const WORKFLOW_DEFINITION_EVENT_FAMILY = eventFamily('workflow.definition.*', WorkflowDefinitionEvents);

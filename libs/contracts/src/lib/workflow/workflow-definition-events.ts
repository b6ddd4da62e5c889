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

const deploymentChanged = z.object({
  tenantId: z.string().min(1),
  key: z.string().min(1),
  /** The binding change: a switch (grayscale), a status promotion (complete-grayscale) or a restore (rollback). */
  action: z.enum(['grayscale', 'complete-grayscale', 'rollback']),
  /** The binding's status after the change. */
  status: z.enum(['active', 'grayscale']),
  activeDefinitionId: z.string().uuid(),
  activeVersion: z.number().int().positive(),
  /** The version that was active before the change (the same as the active one after complete-grayscale). */
  fromDefinitionId: z.string().uuid(),
  previousDefinitionId: z.string().uuid().nullable(),
  changedBy: z.string().min(1),
});
export type DefinitionDeploymentChangedPayload = z.infer<typeof deploymentChanged>;

/**
 * The `workflow.definition.*` events workflow-engine publishes through its outbox (the
 * webhook-dispatcher will consume `workflow.*`).
 */
export const WorkflowDefinitionEvents = {
  published: eventContract('workflow.definition.published', definitionPublished),
  /** New starts follow the active version; running instances stay on theirs, so subscribers may want to know. */
  deploymentChanged: eventContract('workflow.definition.deployment-changed', deploymentChanged),
} as const;

export const WORKFLOW_DEFINITION_EVENT_FAMILY = eventFamily('workflow.definition.*', WorkflowDefinitionEvents);

import type { AnyEventContract } from '../messaging/event-contract';
import { CaseEvents } from '../cases/case-events';
import { WorkflowDefinitionEvents } from '../workflow/workflow-definition-events';
import { WorkflowManagementEvents } from '../workflow/workflow-management-events';
import { WorkflowRuntimeEvents } from '../workflow/workflow-runtime-events';
import { WebhookSourceModule, WEBHOOK_SOURCE_MODULES } from './webhook-event-patterns';

/** A family of event types a subscription may name: every event of one source module. */
export interface WebhookEventFamily {
  module: WebhookSourceModule;
  /** The pattern naming the whole family (`ticket.*`). */
  pattern: string;
  /** Who publishes it (spec §2's "source module"). */
  source: string;
  /**
   * The event types the fleet itself publishes in this family, sorted; empty for the modules of
   * spec §2 whose publishers are outside the fleet (their event names are not specified).
   */
  knownEventTypes: string[];
}

const typesOf = (...groups: Array<Readonly<Record<string, AnyEventContract>>>) => groups.flatMap((group) => Object.values(group).map((c) => c.type)).sort();

/** Spec §2's table, and the fleet's own modules; a record, so a module added to the list must be described here. */
const FAMILIES: Record<WebhookSourceModule, Omit<WebhookEventFamily, 'module' | 'pattern'>> = {
  ticket: { source: 'Tickets', knownEventTypes: [] },
  chat: { source: 'Chat', knownEventTypes: [] },
  file: { source: 'Files', knownEventTypes: [] },
  billing: { source: 'Platform billing', knownEventTypes: [] },
  notification: { source: 'Notifications', knownEventTypes: [] },
  catalog: { source: 'Catalog', knownEventTypes: [] },
  case: { source: 'Case management', knownEventTypes: typesOf(CaseEvents) },
  workflow: { source: 'Workflow engine', knownEventTypes: typesOf(WorkflowDefinitionEvents, WorkflowRuntimeEvents, WorkflowManagementEvents) },
};

/** Every family a subscription may name, in the order of `WEBHOOK_SOURCE_MODULES` (`GET /api/webhooks/event-types`). */
export const WEBHOOK_EVENT_FAMILIES: readonly WebhookEventFamily[] = WEBHOOK_SOURCE_MODULES.map((module) => ({
  module,
  pattern: `${module}.*`,
  ...FAMILIES[module],
}));

import { defineService } from '@lp/platform/runtime';
import { createMessagingTablesMigration, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';

export const AUTHZ_DECISION_SCHEMA = 'authz_audit';

/**
 * authz-decision: answers `authz.decide` for every service. It owns the decision audit schema and
 * reads `authz` read-only. Its evaluators arrive with the decision-runtime issue; until then no
 * `authz.decide` handler is registered and every guard fails closed.
 */
export const authzDecisionService = defineService({
  name: 'authz-decision',
  routePrefixes: ['/api/authorization/decisions'],
  database: {
    schema: AUTHZ_DECISION_SCHEMA,
    entities: [OutboxMessage, ProcessedEvent],
    migrations: [createMessagingTablesMigration(AUTHZ_DECISION_SCHEMA)],
  },
  modules: [],
  openApi: {
    title: 'Authorization decisions',
    description: 'Decision runtime of the authorization platform: RPC authz.decide and the HTTP decision routes.',
  },
});

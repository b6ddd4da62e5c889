import { defineService } from '@lp/platform/runtime';
import { createMessagingTablesMigration, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { DecisionAuditRecord } from './audit';
import { DecisionsModule } from './decisions/decisions.module';
import { SimulationModule } from './simulation/simulation.module';
import { CreateDecisionAudit1763700000100 } from './migrations/1763700000100-CreateDecisionAudit';
import { DecisionAuditJsonColumns1763700000101 } from './migrations/1763700000101-DecisionAuditJsonColumns';

export const AUTHZ_DECISION_SCHEMA = 'authz_audit';

/**
 * authz-decision: answers `authz.decide` for every service. It owns the decision audit schema
 * (`authz_audit`) and reads policy facts from `authz` read-only.
 */
export const authzDecisionService = defineService({
  name: 'authz-decision',
  routePrefixes: ['/api/authorization/decisions'],
  database: {
    schema: AUTHZ_DECISION_SCHEMA,
    entities: [OutboxMessage, ProcessedEvent, DecisionAuditRecord],
    migrations: [createMessagingTablesMigration(AUTHZ_DECISION_SCHEMA), CreateDecisionAudit1763700000100, DecisionAuditJsonColumns1763700000101],
  },
  modules: [DecisionsModule, SimulationModule],
  openApi: {
    title: 'Authorization decisions',
    description: 'Decision runtime of the authorization platform: RPC authz.decide and the HTTP decision routes.',
  },
});

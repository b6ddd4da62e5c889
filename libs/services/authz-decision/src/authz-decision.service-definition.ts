import { authzGuard } from '@lp/authz-guard';
import { defineService } from '@lp/platform/runtime';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { DecisionAuditRecord } from './audit';
import { decisionAuditRetentionJob } from './audit/decision-audit.jobs';
import { AuthzDecisionModule } from './authz-decision.module';
import { DECISION_AUDIT_MIGRATIONS } from './migrations';

export const AUTHZ_DECISION_SCHEMA = 'authz_audit';

/**
 * authz-decision: answers `authz.decide` for every service. It owns the decision audit schema
 * (`authz_audit`) and reads policy facts from `authz` read-only.
 */
export const authzDecisionService = defineService({
  name: 'authz-decision',
  authorization: authzGuard,
  routePrefixes: ['/api/authorization/decisions'],
  database: {
    schema: AUTHZ_DECISION_SCHEMA,
    entities: [OutboxMessage, ProcessedEvent, DecisionAuditRecord],
    migrations: [...messagingMigrations(AUTHZ_DECISION_SCHEMA), ...DECISION_AUDIT_MIGRATIONS],
  },
  modules: [AuthzDecisionModule],
  jobs: [decisionAuditRetentionJob],
  openApi: {
    title: 'Authorization decisions',
    description: 'Decision runtime of the authorization platform: RPC authz.decide and the HTTP decision routes.',
  },
});

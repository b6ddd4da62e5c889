import { ConfigOf, declareConfig } from '@lp/platform/config';

/** authz-decision's own keys (the platform keys are in the runtime's declaration). */
export const authzDecisionConfig = declareConfig('authz-decision', {
  DECISION_CACHE_TTL_MS: { type: 'int', group: 'authz-decision', description: 'longest a cached decision is served', default: 60000, min: 1 },
  AUDIT_FLUSH_INTERVAL_MS: { type: 'int', group: 'authz-decision', description: 'how often audit batches are written', default: 200, min: 10 },
  AUDIT_BATCH_SIZE: { type: 'int', group: 'authz-decision', description: 'audit records per INSERT', default: 500, min: 1, max: 5000 },
  AUDIT_BACKLOG_LIMIT: {
    type: 'int',
    group: 'authz-decision',
    description: 'unwritten audit records past which decisions fail closed (AuditUnavailable)',
    default: 100000,
    min: 1,
  },
  AUDIT_DURABILITY: {
    type: 'string',
    oneOf: ['strict', 'batched'],
    group: 'authz-decision',
    description: 'strict: a decision is answered only once its audit record is fdatasync-ed to the local journal; batched: records wait in memory for the next batch (a crash loses up to one flush interval). Unset: strict with NODE_ENV=production, else batched',
  },
  AUDIT_SPOOL_DIR: { type: 'string', group: 'authz-decision', description: 'where unwritten audit records survive a crash (one directory per running instance); default DATA_DIR/audit-spool/<hostname>' },
});

export type AuthzDecisionConfig = ConfigOf<typeof authzDecisionConfig>;

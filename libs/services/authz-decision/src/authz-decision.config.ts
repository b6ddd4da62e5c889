import { LoggerService } from '@nestjs/common';
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
    description:
      'strict: a decision is answered only once its audit record is fdatasync-ed to the local journal; batched: records wait in memory for the next batch (a crash loses up to one flush interval). Unset: strict with NODE_ENV=production, else batched',
  },
  AUTHZ_FEATURE_ENABLED_VERDICT: {
    type: 'string',
    oneOf: ['neutral', 'allow'],
    group: 'authz-decision',
    description:
      'what an enabled feature answers. neutral: a gate, not a grant (another source must permit); allow: spec §1 read literally, an enabled feature alone permits every signed-in user of the tenant in its module (only for deployments migrating from the original system)',
    default: 'neutral',
  },
  DECISION_AUDIT_RETENTION_DAYS: {
    type: 'int',
    group: 'retention',
    description: 'days the decision audit keeps a decision; whole months past it are dropped as partitions',
    default: 90,
    min: 1,
  },
  DECISION_AUDIT_PARTITIONS_AHEAD: {
    type: 'int',
    group: 'retention',
    description: 'monthly audit partitions kept created ahead of the current month',
    default: 3,
    min: 1,
    max: 24,
  },
  AUDIT_SPOOL_DIR: {
    type: 'string',
    group: 'authz-decision',
    description: 'where unwritten audit records survive a crash (one directory per running instance); default DATA_DIR/audit-spool/<hostname>',
  },
});

export type AuthzDecisionConfig = ConfigOf<typeof authzDecisionConfig>;

/**
 * Says once, at start, that the spec-literal feature setting is on: an operator must see that an
 * enabled feature now permits on its own. Silent for the default.
 */
export function announceFeatureEnabledVerdict(config: Pick<AuthzDecisionConfig, 'AUTHZ_FEATURE_ENABLED_VERDICT'>, logger: Pick<LoggerService, 'warn'>): void {
  if (config.AUTHZ_FEATURE_ENABLED_VERDICT !== 'allow') return;
  logger.warn(
    'AUTHZ_FEATURE_ENABLED_VERDICT=allow: an enabled feature alone permits every signed-in user of the tenant in its module (spec-literal compatibility mode)',
  );
}

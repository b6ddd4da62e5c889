import { declareJob } from '@lp/platform/jobs';
import { RETENTION_DEFAULT_CRON } from '@lp/platform/runtime';

/**
 * `authz-decision.decision-audit-retention` (`DecisionAuditRetention.run`): creates the monthly
 * partitions ahead, drops the months wholly past DECISION_AUDIT_RETENTION_DAYS and deletes the rest
 * before the cutoff in batches. Daily by default, at the platform's retention time.
 */
export const decisionAuditRetentionJob = declareJob({
  service: 'authz-decision',
  name: 'decision-audit-retention',
  description:
    'Creates the decision audit partitions DECISION_AUDIT_PARTITIONS_AHEAD months ahead, drops months past DECISION_AUDIT_RETENTION_DAYS, deletes older rows left in batches',
  moduleName: 'DecisionAuditModule',
  schedule: { cron: RETENTION_DEFAULT_CRON },
  timeoutSeconds: 3_600,
});

import { declareJob } from '@lp/platform/jobs';
import { RETENTION_DEFAULT_CRON } from '@lp/platform/runtime';

/** `policy-management.change-log-retention` (`PolicyManagementRetention.run`): daily by default, at the platform's retention time. */
export const changeLogRetentionJob = declareJob({
  service: 'policy-management',
  name: 'change-log-retention',
  description: 'Deletes policy change log entries older than POLICY_CHANGE_LOG_RETENTION_DAYS, in batches of RETENTION_BATCH_SIZE',
  moduleName: 'PolicyManagementRetentionModule',
  schedule: { cron: RETENTION_DEFAULT_CRON },
  timeoutSeconds: 1_800,
});

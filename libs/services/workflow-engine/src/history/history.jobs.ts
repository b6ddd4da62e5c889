import { FleetService } from '@lp/contracts';
import { declareJob } from '@lp/platform/jobs';
import { RETENTION_DEFAULT_CRON } from '@lp/platform/runtime';

/** workflow-engine's history jobs (run by operations' scheduler, exactly once across replicas). */
export const HistoryJobs = {
  /** `workflow-engine.history-retention` (`HistoryRetention.run`). */
  historyRetention: declareJob({
    service: FleetService.workflowEngine,
    name: 'history-retention',
    description:
      'Deletes archived workflow instances (tasks, event log, audit rows) that ended longer ago than their tenant’s retention (default WORKFLOW_HISTORY_RETENTION_DAYS), RETENTION_BATCH_SIZE instances per transaction; tenants with workflow.runtime off are skipped',
    moduleName: 'HistoryModule',
    schedule: { cron: RETENTION_DEFAULT_CRON },
  }),
} as const;

export const HISTORY_JOBS = Object.values(HistoryJobs);

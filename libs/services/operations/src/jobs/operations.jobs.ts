import { FleetService } from '@lp/contracts';
import { declareJob } from '@lp/platform/jobs';

/** The operations service's own background work. */
export const OperationsJobs = {
  executionRetention: declareJob({
    service: FleetService.operations,
    name: 'execution-retention',
    description: 'Deletes job execution audit rows older than OPERATIONS_EXECUTION_RETENTION_DAYS, in batches.',
    moduleName: 'JobsModule',
    schedule: { cron: '37 3 * * *' },
  }),
} as const;

export const OPERATIONS_JOBS = Object.values(OperationsJobs);

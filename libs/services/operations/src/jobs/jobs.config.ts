import { ConfigOf, declareConfig } from '@lp/platform/config';

/** The job scheduler's own keys (operations). */
export const jobsConfig = declareConfig('operations', {
  OPERATIONS_SCHEDULER_TICK_MS: {
    type: 'int',
    group: 'jobs',
    description: 'how often each operations replica looks for due jobs (the lateness of a run is at most about this)',
    default: 250,
    min: 20,
    max: 60000,
  },
  OPERATIONS_CATALOG_SYNC_MS: {
    type: 'int',
    group: 'jobs',
    description: "how often job definitions are reconciled with every service's code catalog (also at start)",
    default: 60000,
    min: 1000,
  },
  OPERATIONS_CATALOG_TIMEOUT_MS: {
    type: 'int',
    group: 'jobs',
    description: 'how long the catalog sync waits for one service to answer before skipping it for this round',
    default: 3000,
    min: 50,
  },
  OPERATIONS_CATALOG_STARTUP_WAIT_MS: {
    type: 'int',
    group: 'jobs',
    description:
      'how long the first reconciliation after start keeps asking a service that does not answer yet (it may still be starting) before skipping it with a warning',
    default: 60000,
    min: 0,
  },
  OPERATIONS_EXECUTION_RETENTION_DAYS: {
    type: 'int',
    group: 'retention',
    description: 'days the job execution audit keeps a run',
    default: 30,
    min: 1,
  },
});

export type JobsConfig = ConfigOf<typeof jobsConfig>;

import { ConfigOf, declareConfig } from '@lp/platform/config';

/** operations' own keys (the platform keys are in the runtime's declaration). */
export const operationsConfig = declareConfig('operations', {
  OPERATIONS_DIAGNOSTICS_TIMEOUT_MS: {
    type: 'int',
    group: 'diagnostics',
    description: 'how long a diagnostics report waits for each service before listing it as unreachable',
    default: 3000,
    min: 100,
    max: 60000,
  },
});

export type OperationsConfig = ConfigOf<typeof operationsConfig>;

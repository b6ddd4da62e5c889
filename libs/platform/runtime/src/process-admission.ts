import { createProcessAdmission, ProcessAdmission } from '@lp/platform/admission';
import { PlatformRuntime } from './platform-runtime';
import { StartupError } from './startup-error';

/**
 * The HTTP admission control of this process (every service's process and the standalone alike),
 * from its `ADMISSION_*` settings: one per process, in front of everything it serves, because the
 * process's event loop, cores and connection pools are what a request competes for
 * (docs/decisions.md, Admission control).
 */
export function processAdmission(runtime: PlatformRuntime): ProcessAdmission {
  const { config } = runtime;
  const mode = config.ADMISSION_CONCURRENCY;
  if (mode === 'adaptive' && !(config.ADMISSION_MIN_LIMIT <= config.ADMISSION_LIMIT && config.ADMISSION_LIMIT <= config.ADMISSION_MAX_LIMIT)) {
    throw new StartupError(
      `ADMISSION_CONCURRENCY=adaptive needs ADMISSION_MIN_LIMIT <= ADMISSION_LIMIT <= ADMISSION_MAX_LIMIT, got ${config.ADMISSION_MIN_LIMIT}, ${config.ADMISSION_LIMIT}, ${config.ADMISSION_MAX_LIMIT}`,
    );
  }
  return createProcessAdmission(runtime.processName, {
    mode,
    limit: config.ADMISSION_LIMIT,
    minLimit: config.ADMISSION_MIN_LIMIT,
    maxLimit: config.ADMISSION_MAX_LIMIT,
    queueTimeoutMs: config.ADMISSION_QUEUE_TIMEOUT_MS,
    queueSize: config.ADMISSION_QUEUE_SIZE,
  });
}

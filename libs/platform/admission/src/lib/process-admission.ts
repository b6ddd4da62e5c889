import { AdmissionController } from './admission-controller';
import { admissionOutcomeCounter, trackAdmission } from './admission-metrics';
import { ConcurrencyLimit, FixedLimit } from './concurrency-limit';
import { GradientLimit } from './gradient-limit';

/** The `ADMISSION_*` settings of a process (platform configuration). */
export interface AdmissionSettings {
  /** `adaptive`: the limit follows latency between `minLimit` and `maxLimit`, starting at `limit`; `fixed`: it stays at `limit`. */
  mode: 'adaptive' | 'fixed';
  limit: number;
  minLimit: number;
  maxLimit: number;
  queueTimeoutMs: number;
  queueSize: number;
}

export interface ProcessAdmission {
  controller: AdmissionController;
  /** Refuses whoever still waits and takes the controller off `/metrics` (at shutdown). */
  close(): void;
}

/** The HTTP admission of one process (`standalone` or a service), with its metrics. */
export function createProcessAdmission(processName: string, settings: AdmissionSettings): ProcessAdmission {
  const limit: ConcurrencyLimit =
    settings.mode === 'fixed' ? new FixedLimit(settings.limit) : new GradientLimit({ initial: settings.limit, min: settings.minLimit, max: settings.maxLimit });
  const controller = new AdmissionController({
    limit,
    queueTimeoutMs: settings.queueTimeoutMs,
    queueSize: settings.queueSize,
    onOutcome: admissionOutcomeCounter(processName),
  });
  const untrack = trackAdmission(processName, controller);
  return {
    controller,
    close: () => {
      untrack();
      controller.close();
    },
  };
}

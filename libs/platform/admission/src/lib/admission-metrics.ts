import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@lp/platform/observability';
import { AdmissionController, AdmissionOutcome } from './admission-controller';

/** The controllers whose state `/metrics` shows, by process label (`standalone` or the service). */
const tracked = new Map<string, AdmissionController>();

function existing<T>(name: string): T | undefined {
  return metricsRegistry.getSingleMetric(name) as T | undefined;
}

const requests =
  existing<Counter<'process' | 'outcome'>>('admission_requests_total') ??
  new Counter({
    name: 'admission_requests_total',
    help: 'HTTP requests by admission outcome: admitted (at once), queued (admitted after waiting), refused (503 on arrival), expired (503 after waiting past the queue deadline).',
    labelNames: ['process', 'outcome'] as const,
    registers: [metricsRegistry],
  });

/** A gauge read from the tracked controllers when scraped: nothing to update on the request path. */
function stateGauge(name: string, help: string, read: (controller: AdmissionController) => number): void {
  if (existing(name)) return;
  new Gauge({
    name,
    help,
    labelNames: ['process'] as const,
    registers: [metricsRegistry],
    collect() {
      this.reset();
      for (const [process, controller] of tracked) this.set({ process }, read(controller));
    },
  });
}

stateGauge('admission_concurrency_limit', 'Current concurrency limit of HTTP admission (adaptive or configured).', (c) => c.limit);
stateGauge('admission_in_flight', 'HTTP requests admitted and not yet answered.', (c) => c.inFlight);
stateGauge('admission_queue_length', 'HTTP requests waiting for admission.', (c) => c.queued);

/** Counts each outcome under the process's label (children resolved once, not per request). */
export function admissionOutcomeCounter(process: string): (outcome: AdmissionOutcome) => void {
  const children = {
    admitted: requests.labels(process, 'admitted'),
    queued: requests.labels(process, 'queued'),
    refused: requests.labels(process, 'refused'),
    expired: requests.labels(process, 'expired'),
  };
  return (outcome) => children[outcome].inc();
}

/** Shows the controller's limit, in-flight and queue on `/metrics` until the returned function is called. */
export function trackAdmission(process: string, controller: AdmissionController): () => void {
  tracked.set(process, controller);
  return () => {
    if (tracked.get(process) === controller) tracked.delete(process);
  };
}

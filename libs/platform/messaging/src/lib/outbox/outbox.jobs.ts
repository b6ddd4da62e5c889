import { JobDeclaration, JobRunResult } from '@lp/contracts';
import { declareJob } from '@lp/platform/jobs';
import { OutboxSweepResult } from './outbox-relay';

/** Job name inside its service: the catalog's JobName is `{service}.outbox-sweep`. */
export const OUTBOX_SWEEP_JOB = 'outbox-sweep';

/**
 * The outbox maintenance of one service (`OutboxRelay.sweep`), a job of every service with an
 * outbox. Every 60 s: the relay's own loop publishes within milliseconds of a commit, so the sweep
 * only has to catch what the loop could not (rows left behind by a dead replica's lapsed lease, a
 * backlog after a broker outage while the loop is backing off) and keep the table small; a minute
 * bounds that delay without loading the database. Critical: a failing sweep means events are stuck.
 */
export function outboxSweepJob(service: string): JobDeclaration {
  return declareJob({
    service,
    name: OUTBOX_SWEEP_JOB,
    description: 'One full outbox pass: publishes every pending row (lapsed leases included), purges sent rows past retention (7 days), reports the lag',
    moduleName: 'MessagingModule',
    isCritical: true,
    schedule: { intervalSeconds: 60 },
    timeoutSeconds: 120,
  });
}

/** The sweep's one-line detail; the broker not confirming is the job's business failure. */
export function outboxSweepOutcome(result: OutboxSweepResult): JobRunResult {
  const age = result.lag.oldestUnsentAgeMs === null ? '' : `, oldest ${Math.round(result.lag.oldestUnsentAgeMs / 1000)} s`;
  const detail = `published ${result.published} (${result.reclaimed} with a lapsed lease), purged ${result.purged} sent, ${result.lag.unsent} unsent${age}`;
  if (result.publishError !== undefined) return { status: 'failed', errorCode: 'Outbox.PublishUnconfirmed', detail: `${detail}; ${result.publishError}` };
  return { status: 'succeeded', detail };
}

import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EventEnvelope } from '@lp/contracts';
import { outboxLag, outboxPending, Tracing } from '@lp/platform/observability';
import { purgeInBatches } from '@lp/platform/persistence';
import { DataSource, EntitySubscriberInterface, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { EventBus } from '../events/event-bus';
import { InvalidEventEnvelopeError } from '../events/event-envelope';
import { OutboxMessage } from './outbox-message.entity';
import { OUTBOX_WRITTEN } from './outbox-writer';
import { qualifiedTableName } from './table-name';

export interface OutboxRelayOptions {
  /** Label of the outbox metrics (`outbox_unsent_rows`, `outbox_unsent_oldest_age_seconds`); no metrics without it. */
  service?: string;
  batchSize?: number;
  /** Poll interval when idle; commits through OutboxWriter wake the relay at once anyway. */
  pollIntervalMs?: number;
  /** How long a claimed row stays with this relay; must exceed the bus's publish timeout. */
  leaseMs?: number;
  /** Backoff while the broker does not confirm: doubles from `initialMs` up to `maxMs`, with jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** How long sent rows are kept (for tracing what was published) before `sweep` deletes them; null keeps them. */
  retainSentMs?: number | null;
  /** Sent rows deleted per statement by `sweep`. */
  purgeBatchSize?: number;
}

export interface OutboxLag {
  unsent: number;
  /** Age of the oldest unsent row; null when every row is sent. */
  oldestUnsentAgeMs: number | null;
}

/** What one `sweep` did, for the outbox-sweep job's result. */
export interface OutboxSweepResult {
  /** Rows published by this pass (pending ones and reclaimed ones). */
  published: number;
  /** Unsent rows whose claim had lapsed (a relay that died or hung mid-publish) when the pass began. */
  reclaimed: number;
  /** Sent rows deleted as past `retainSentMs`. */
  purged: number;
  /** The lag after the pass (parked rows stay in it). */
  lag: OutboxLag;
  /** Set when the broker did not confirm some rows: they stay pending for the loop and the next sweep. */
  publishError?: string;
}

interface ClaimedRow {
  id: string;
  envelope: EventEnvelope;
  traceparent: string | null;
}

const METRICS_INTERVAL_MS = 5_000;
const PARKED = 'infinity';

/**
 * Publishes the outbox: claims unsent rows in id order (`FOR UPDATE SKIP LOCKED`, so relays of
 * several instances share the work without publishing a row twice at once), publishes them
 * through the EventBus (resolves on the broker's confirm) and marks them sent.
 *
 * At-least-once, never lossy: a row is marked sent only after its confirm; a row whose publish
 * failed is released for the next pass; a row claimed by a relay that died comes back when its
 * lease runs out. The claim is a lease (`locked_until`), not a transaction held across broker I/O:
 * a broker outage never keeps database locks open (on PGlite that would stall every query).
 * While the broker does not confirm, the relay backs off exponentially. A row whose envelope is
 * invalid cannot ever be published: it is parked (`locked_until = infinity`, `last_error` set)
 * instead of blocking the rest, and stays visible in the lag.
 *
 * Two ways in: the loop (`start`), nudged on every commit through OutboxWriter so publishing never
 * waits for a schedule; and `sweep`, the service's `{service}.outbox-sweep` job, which operations
 * triggers on one replica: a full pass regardless of the loop's backoff, the purge of sent rows past
 * retention, and counts for the execution audit. The relay keeps no purge timer of its own.
 */
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(OutboxRelay.name);
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly retainSentMs: number | null;
  private readonly purgeBatchSize: number;
  private loop?: Promise<void>;
  private stopping = false;
  private nudged = false;
  private sleeper?: { wake(): void; nudgeable: boolean };
  private lastMetricsAt = 0;

  /** Nudges the relay after every commit of a transaction that wrote to the outbox. */
  private readonly commitListener: EntitySubscriberInterface = {
    afterTransactionCommit: ({ queryRunner }: TransactionCommitEvent) => {
      if (queryRunner.isTransactionActive || !queryRunner.data[OUTBOX_WRITTEN]) return;
      delete queryRunner.data[OUTBOX_WRITTEN];
      this.nudge();
    },
    afterTransactionRollback: ({ queryRunner }: TransactionRollbackEvent) => {
      if (!queryRunner.isTransactionActive) delete queryRunner.data[OUTBOX_WRITTEN];
    },
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.backoff = { initialMs: options.backoff?.initialMs ?? 250, maxMs: options.backoff?.maxMs ?? 30_000 };
    this.retainSentMs = options.retainSentMs === undefined ? 7 * 24 * 3_600_000 : options.retainSentMs;
    this.purgeBatchSize = options.purgeBatchSize ?? 1_000;
  }

  private get table(): string {
    return qualifiedTableName(this.dataSource, OutboxMessage);
  }

  /** Starts the polling loop (idempotent). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    if (!this.dataSource.subscribers.includes(this.commitListener)) this.dataSource.subscribers.push(this.commitListener);
    this.loop = this.run();
  }

  /** Stops the loop; resolves once a batch in flight is published and marked (or released). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.sleeper?.wake();
    const subscribers = this.dataSource.subscribers;
    if (subscribers.includes(this.commitListener)) subscribers.splice(subscribers.indexOf(this.commitListener), 1);
    await this.loop;
    this.loop = undefined;
  }

  /** Asks for a pass now (after a commit). Ignored while backing off from a broker outage. */
  nudge(): void {
    this.nudged = true;
    if (this.sleeper?.nudgeable) this.sleeper.wake();
  }

  /** Publishes every row due now; rejects when the broker did not confirm some of them. */
  async relayPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const relayed = await this.relayBatch();
      total += relayed;
      if (relayed < this.batchSize) return total;
    }
  }

  /**
   * One full maintenance pass (the outbox-sweep job): deletes sent rows older than `retainSentMs`
   * at `now`, then publishes every row due, counting those whose lease had lapsed. Safe beside the
   * loop and on several replicas at once: claims are `SKIP LOCKED` leases. A broker that does not
   * confirm is reported in `publishError`, not thrown: the purge still happened and the rows wait.
   */
  async sweep(now = new Date()): Promise<OutboxSweepResult> {
    const table = this.table;
    let purged = 0;
    if (this.retainSentMs !== null) {
      purged = (
        await purgeInBatches(this.dataSource, {
          table,
          timeColumn: '"sent_at"',
          keyColumns: ['"id"'],
          cutoff: new Date(now.getTime() - this.retainSentMs),
          batchSize: this.purgeBatchSize,
        })
      ).rows;
    }
    const [lapsed] = await this.dataSource.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS "n" FROM ${table} WHERE "sent_at" IS NULL AND "locked_until" < now()`,
    );
    let published = 0;
    let publishError: string | undefined;
    try {
      published = await this.relayPending();
    } catch (error) {
      publishError = error instanceof Error ? error.message : String(error);
    }
    const lag = await this.lag();
    if (this.options.service) this.recordLag(lag);
    return { published, reclaimed: lapsed?.n ?? 0, purged, lag, ...(publishError !== undefined && { publishError }) };
  }

  async lag(): Promise<OutboxLag> {
    const [row] = await this.dataSource.query<Array<{ unsent: number; oldest_age_ms: number | null }>>(
      `SELECT count(*)::int AS "unsent",
              (EXTRACT(EPOCH FROM (now() - min("created_at"))) * 1000)::float8 AS "oldest_age_ms"
         FROM ${this.table} WHERE "sent_at" IS NULL`,
    );
    if (!row) throw new Error(`Outbox lag query on ${this.table} returned no row`);
    return { unsent: row.unsent, oldestUnsentAgeMs: row.oldest_age_ms === null ? null : Math.max(0, row.oldest_age_ms) };
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.nudged = false;
      let delay = this.pollIntervalMs;
      try {
        const relayed = await this.relayBatch();
        if (failures > 0) this.log.log(`Outbox relay recovered after ${failures} failed attempts`);
        failures = 0;
        if (relayed === this.batchSize || this.nudged) delay = 0;
      } catch (error) {
        failures += 1;
        delay = this.backoffDelay(failures);
        if (failures === 1 || failures % 20 === 0) {
          this.log.warn({ err: error, failures, retryInMs: delay }, 'Outbox relay could not publish; backing off');
        }
      }
      await this.housekeeping();
      if (delay > 0 && !this.stopping) await this.sleep(delay, failures === 0);
    }
  }

  private async relayBatch(): Promise<number> {
    const table = this.table;
    // A CTE, so pg reports the claimed rows (TypeORM returns [rows, count] for a bare UPDATE).
    const rows: ClaimedRow[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE ${table} SET "locked_until" = now() + $2::int * interval '1 millisecond'
          WHERE "id" IN (
            SELECT "id" FROM ${table}
             WHERE "sent_at" IS NULL AND ("locked_until" IS NULL OR "locked_until" < now())
             ORDER BY "id" LIMIT $1
             FOR UPDATE SKIP LOCKED)
         RETURNING "id", "envelope", "traceparent")
       SELECT "id", "envelope", "traceparent" FROM claimed ORDER BY "id"`,
      [this.batchSize, this.leaseMs],
    );
    if (rows.length === 0) return 0;

    // Published in id order on one channel: the broker keeps that order.
    // Each in the trace of the write that caused it (the bus sends the active `traceparent`).
    const results = await Promise.allSettled(rows.map((row) => Tracing.withParent(row.traceparent, () => this.bus.publish(row.envelope))));
    const sent: string[] = [];
    const failed: string[] = [];
    const parked: string[] = [];
    let firstError: unknown;
    results.forEach((result, i) => {
      // allSettled keeps one result per row, in order: a missing row is a bug here.
      const row = rows[i];
      if (!row) throw new Error(`Outbox relay: no claimed row for publish result ${i}`);
      if (result.status === 'fulfilled') return sent.push(row.id);
      if (result.reason instanceof InvalidEventEnvelopeError) {
        this.log.error({ err: result.reason, outboxId: row.id }, 'Outbox row can never be published; parked');
        return parked.push(row.id);
      }
      firstError ??= result.reason;
      failed.push(row.id);
    });

    if (sent.length > 0) {
      await this.dataSource.query(`UPDATE ${table} SET "sent_at" = now(), "locked_until" = NULL WHERE "id" = ANY($1::bigint[])`, [sent]);
    }
    if (failed.length > 0) await this.markFailed(failed, String((firstError as Error)?.message ?? firstError), null);
    if (parked.length > 0) await this.markFailed(parked, 'invalid envelope', PARKED);
    if (failed.length > 0) {
      throw new Error(`${failed.length} of ${rows.length} outbox events were not confirmed by the broker`, { cause: firstError });
    }
    return rows.length;
  }

  /** Released for the next pass (`lockedUntil` null), or parked for good. */
  private async markFailed(ids: string[], reason: string, lockedUntil: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET "attempts" = "attempts" + 1, "last_error" = $2, "locked_until" = $3::timestamptz WHERE "id" = ANY($1::bigint[])`,
      [ids, reason.slice(0, 1_000), lockedUntil],
    );
  }

  /**
   * The lag metrics, refreshed by the loop every few seconds: a gauge scraped every 15 s must not
   * wait for a 60 s job (the purge moved to `sweep`). A failure here is logged and never stops publishing.
   */
  private async housekeeping(): Promise<void> {
    const now = Date.now();
    if (!this.options.service || now - this.lastMetricsAt < METRICS_INTERVAL_MS) return;
    this.lastMetricsAt = now;
    try {
      this.recordLag(await this.lag());
    } catch (error) {
      this.log.warn({ err: error }, 'Outbox lag metrics failed');
    }
  }

  private recordLag(lag: OutboxLag): void {
    if (!this.options.service) return;
    outboxPending.set({ service: this.options.service }, lag.unsent);
    outboxLag.set({ service: this.options.service }, (lag.oldestUnsentAgeMs ?? 0) / 1000);
  }

  /**
   * Hand-rolled rather than `exponential-backoff`'s backOff(), whose waits cannot be cut short:
   * stop() must not wait out a 30 s delay.
   */
  private backoffDelay(failures: number): number {
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** (failures - 1));
    // Jitter, so the relays of many instances do not hit a recovering broker in step.
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  /** A wait that stop() always cuts short, and nudge() too unless we are backing off. */
  private sleep(ms: number, nudgeable: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      const wake = () => {
        clearTimeout(timer);
        this.sleeper = undefined;
        resolve();
      };
      this.sleeper = { wake, nudgeable };
    });
  }
}

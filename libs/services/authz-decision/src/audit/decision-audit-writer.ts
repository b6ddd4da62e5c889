import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DecisionRequest, DecisionResult } from '@lp/contracts';
import { DataSource } from 'typeorm';
import { sqlState } from '@lp/platform/persistence';
import { decisionAuditGauges } from '@lp/platform/observability';
import { Clock, systemClock } from '../engine/clock';
import {
  auditInsertParameter,
  auditInsertSql,
  AuditRecordText,
  auditRecordText,
  DecisionAuditEntry,
  decisionAuditEntry,
  escapedAuditRecord,
  QueuedAuditEntry,
} from './decision-audit-entry';
import { DecisionAuditRecord } from './decision-audit-record.entity';
import { DecisionAuditJournal } from './decision-audit-journal';
import { DecisionAuditSpool } from './decision-audit-spool';
import { AuditUnavailableError } from './decision-audit.errors';

/**
 * `strict`: a decision is answered only once its record is durable on local disk (the journal, group
 * committed with fdatasync); a crash loses no answered decision. `batched`: records wait in memory
 * for the next batch INSERT; a crash (kill -9, power loss) loses what was answered since the last
 * INSERT or spool write, at most about one flush interval of decisions.
 */
export type AuditDurability = 'strict' | 'batched';

/**
 * The settings the service declares (`AUDIT_*` in authz-decision's config) are required here: the
 * config is where their defaults live, so the writer cannot quietly run on other ones.
 */
export interface DecisionAuditWriterOptions {
  /** `strict` needs `spoolDirectory` (the journal lives there). */
  durability: AuditDurability;
  /** Records written per flush step (one INSERT), at most 10000. */
  batchSize: number;
  /** How often the background flusher writes what has queued up, in ms. */
  flushIntervalMs: number;
  /** Records waiting (queued, in flight or kept after a failure) beyond which `record` refuses. */
  maxBacklog: number;
  /**
   * Where records the database did not take are kept on disk until it does (see
   * `DecisionAuditSpool`); one directory per instance. Unset: kept in memory only.
   */
  spoolDirectory?: string;
  /** Wait after the first failed write; doubles per further failure up to `retryMaxDelayMs`. Default 200 ms / 10 s. */
  retryInitialDelayMs?: number;
  retryMaxDelayMs?: number;
  /** How long `close()` keeps retrying before it leaves the rest in the spool. Default 10 s. */
  closeTimeoutMs?: number;
  /** `decidedAt` of records given as (request, result, latency). */
  clock?: Clock;
}

export interface DecisionAuditWriterStats {
  /** Records not yet in the database: `record` refuses at `maxBacklog`. */
  backlog: number;
  /** Of those, how many are in the spool file. */
  spooled: number;
  /** Records written since start (a replayed record already present counts too). */
  written: number;
  /** Records PostgreSQL refused for their content even escaped (kept in the rejected file). */
  rejected: number;
  /** Records stored with NUL / lone surrogates escaped after PostgreSQL refused them as they were. */
  escaped: number;
  consecutiveFailures: number;
  lastError?: string;
  /** Strict durability: journal writes (each one fdatasync) so far. */
  journalCommits?: number;
}

export interface AuditCloseResult {
  /** Records that could not be written before the deadline. */
  remaining: number;
  /** Of those, how many are safe in the spool file (replayed on the next start). */
  spooled: number;
}

interface Pending {
  record: AuditRecordText;
  /** Already appended to the spool file. */
  spooled: boolean;
  /** Refused by PostgreSQL for its content; skipped if its batch is retried. */
  rejected?: boolean;
}

const MAX_BATCH_SIZE = 10_000;
const MAX_REJECTED_KEPT = 100;
/** SQLSTATE classes meaning "this row's content", not "the database": data exception, integrity, program limit. */
const CONTENT_ERROR_CLASSES = ['22', '23', '54'];

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function positive(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${value}`);
  return value;
}

/**
 * Writes the decision audit off the hot path. `record` only validates, serializes and enqueues
 * (the JSON text is the record from then on: see `AuditRecordText`); a background flusher writes
 * each batch as one INSERT (`json_to_recordset` over the texts) that ignores a known decision id,
 * so a retried or replayed batch never duplicates a row.
 *
 * No record is lost short of losing the disk:
 * - a failed batch goes back to the head of the queue and is retried with exponential backoff;
 *   everything waiting at that moment is appended to the spool file (when configured), and so is
 *   everything recorded during the outage, at each failed attempt; the file goes once all of it is written;
 * - a start replays the spool file of a process that crashed;
 * - `close()` drains, retrying until its deadline, and leaves what remains in the spool file;
 * - a row PostgreSQL refuses for its own content (SQLSTATE 22/23/54) is isolated by splitting the
 *   batch, logged and kept in the rejected file, so it cannot block the records behind it.
 *
 * When the backlog reaches `maxBacklog`, `record` throws `AuditUnavailableError` and the decision
 * service fails closed (`canAccept()` asks without throwing). Nest lifecycle: `onModuleInit`
 * starts it, `beforeApplicationShutdown` closes it while the DataSource is still open.
 */
export class DecisionAuditWriter {
  private readonly logger = new Logger(DecisionAuditWriter.name);
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly maxBacklog: number;
  private readonly retryInitialDelayMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly closeTimeoutMs: number;
  private readonly spool?: DecisionAuditSpool;
  private readonly journal?: DecisionAuditJournal;
  private readonly clock: Clock;

  private pending: Pending[] = [];
  private inFlight = 0;
  /** Strict durability: records waiting for their journal write. */
  private journaling = 0;
  private spooledOutstanding = 0;
  private written = 0;
  private rejectedCount = 0;
  private escapedCount = 0;
  private readonly rejectedKept: AuditRecordText[] = [];
  private failures = 0;
  private lastError?: string;
  private retryAt = 0;
  private refusing = false;
  private insertSql?: string;

  private started = false;
  private closed = false;
  private closing?: Promise<AuditCloseResult>;
  private timer?: NodeJS.Timeout;
  /** Unregisters this writer's `/metrics` gauges (registered by `start`). */
  private untrackMetrics: Array<() => void> = [];
  private kick?: NodeJS.Immediate;
  private background?: Promise<void>;
  /** Every write and spool operation runs in this chain, one at a time. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    options: DecisionAuditWriterOptions,
  ) {
    this.batchSize = positive('batchSize', options.batchSize, MAX_BATCH_SIZE);
    this.flushIntervalMs = positive('flushIntervalMs', options.flushIntervalMs);
    this.maxBacklog = positive('maxBacklog', options.maxBacklog);
    this.retryInitialDelayMs = positive('retryInitialDelayMs', options.retryInitialDelayMs ?? 200);
    this.retryMaxDelayMs = positive('retryMaxDelayMs', options.retryMaxDelayMs ?? 10_000);
    this.closeTimeoutMs = Math.max(0, options.closeTimeoutMs ?? 10_000);
    this.clock = options.clock ?? systemClock;
    if (options.spoolDirectory) this.spool = DecisionAuditSpool.claim(options.spoolDirectory);
    if (options.durability === 'strict') {
      if (!this.spool) throw new RangeError('strict audit durability needs a spool directory for its journal');
      this.journal = new DecisionAuditJournal(this.spool.spoolPath);
    }
  }

  /** Whether `record` answers with a promise to await before replying (strict durability). */
  get strict(): boolean {
    return this.journal !== undefined;
  }

  /** Replays the spool file left by an earlier process, then starts the background flusher. */
  async start(): Promise<void> {
    if (this.started || this.closed) return;
    this.started = true;
    if (this.spool) this.replay(this.spool);
    this.untrackMetrics = [
      decisionAuditGauges.backlog(() => this.backlog()),
      decisionAuditGauges.spooled(() => this.spooledOutstanding),
      decisionAuditGauges.failures(() => this.failures),
    ];
    this.timer = setInterval(() => this.tick(), this.flushIntervalMs);
    this.timer.unref();
    // What a crashed process left is written now, not a flush interval later.
    if (this.pending.length > 0) setImmediate(() => this.tick());
  }

  /**
   * Enqueues the audit record of one decision. Batched durability: synchronous and cheap, no I/O,
   * returns undefined. Strict durability: returns a promise that resolves once the record is on
   * local disk (the decision may be answered then) and rejects with `AuditUnavailableError` when
   * the journal cannot be written (the record is then not kept: the decision must fail closed).
   * @throws AuditUnavailableError when the backlog is at its bound or the writer is closed.
   * @throws TypeError for an entry PostgreSQL could never take (decisionId not a UUID, invalid date).
   */
  record(entry: DecisionAuditEntry): Promise<void> | undefined;
  /** The same for an answered decision: `decidedAt` is now, the correlation id the request's. */
  record(request: DecisionRequest, result: DecisionResult, latencyMs: number): Promise<void> | undefined;
  record(entryOrRequest: DecisionAuditEntry | DecisionRequest, result?: DecisionResult, latencyMs?: number): Promise<void> | undefined {
    if (this.closed) throw new AuditUnavailableError('the audit writer is closed');
    const backlog = this.backlog();
    if (backlog >= this.maxBacklog) {
      if (!this.refusing) this.logger.error(`Refusing decisions: ${backlog} audit records wait to be written (${this.lastError ?? 'database slow'})`);
      this.refusing = true;
      throw new AuditUnavailableError(`${backlog} records wait to be written`);
    }
    const entry =
      result === undefined
        ? (entryOrRequest as DecisionAuditEntry)
        : decisionAuditEntry(entryOrRequest as DecisionRequest, result, { decidedAt: this.clock(), latencyMs: latencyMs ?? Number.NaN });
    const record = auditRecordText(entry);
    if (this.journal) return this.journaled(this.journal, record);
    this.enqueue({ record, spooled: false });
    return undefined;
  }

  /** Strict durability: on disk first, then queued for the database like any spooled record. */
  private async journaled(journal: DecisionAuditJournal, record: AuditRecordText): Promise<void> {
    // Counted before the append, so a truncation queued meanwhile sees it outstanding and keeps the file.
    this.spooledOutstanding++;
    this.journaling++;
    try {
      await journal.append(record.json);
    } catch (error) {
      this.spooledOutstanding--;
      this.logger.error(`Audit journal ${journal.path} cannot be written, failing decisions closed: ${messageOf(error)}`);
      throw new AuditUnavailableError('the audit journal cannot be written');
    } finally {
      this.journaling--;
    }
    this.enqueue({ record, spooled: true });
  }

  private enqueue(pending: Pending): void {
    this.pending.push(pending);
    if (this.pending.length >= this.batchSize && this.started && !this.kick) {
      this.kick = setImmediate(() => {
        this.kick = undefined;
        this.tick();
      });
    }
  }

  /** Whether `record` would take a record now. */
  canAccept(): boolean {
    return !this.closed && this.backlog() < this.maxBacklog;
  }

  /** Records not yet in the database (the metric behind `canAccept`). */
  backlog(): number {
    return this.pending.length + this.inFlight + this.journaling;
  }

  stats(): DecisionAuditWriterStats {
    return {
      backlog: this.backlog(),
      spooled: this.spooledOutstanding,
      written: this.written,
      rejected: this.rejectedCount,
      escaped: this.escapedCount,
      consecutiveFailures: this.failures,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(this.journal ? { journalCommits: this.journal.commits } : {}),
    };
  }

  /** The latest records PostgreSQL refused for their content (also in the rejected file, if configured). */
  rejected(): QueuedAuditEntry[] {
    return this.rejectedKept.map((r) => JSON.parse(r.json) as QueuedAuditEntry);
  }

  /**
   * Writes everything recorded so far, after any write in flight, ignoring the retry backoff.
   * Rejects with the database error if a batch fails; its records stay queued (and spooled).
   */
  flush(): Promise<void> {
    return this.serialize(() => this.drain());
  }

  /**
   * Stops taking records and drains: waits for the write in flight, then retries with backoff
   * until the deadline; whatever is left is in the spool file (replayed on the next start) or,
   * without a spool directory, reported as lost. Idempotent.
   */
  close(options: { timeoutMs?: number } = {}): Promise<AuditCloseResult> {
    this.closing ??= this.shutdown(options.timeoutMs ?? this.closeTimeoutMs);
    return this.closing;
  }

  async onModuleInit(): Promise<void> {
    await this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  private replay(spool: DecisionAuditSpool): void {
    const { records, unreadable } = spool.read();
    if (unreadable > 0) this.logger.warn(`Skipped ${unreadable} unreadable line(s) of ${spool.spoolPath} (cut short by a crash)`);
    if (records.length === 0) {
      spool.clear();
      return;
    }
    const seen = new Set<string>();
    const replayed = records.filter((r) => !seen.has(r.decisionId) && seen.add(r.decisionId));
    this.pending = [...replayed.map((record) => ({ record, spooled: true })), ...this.pending];
    this.spooledOutstanding += replayed.length;
    this.logger.log(`Replaying ${replayed.length} spooled audit record(s) from ${spool.spoolPath}`);
  }

  private tick(): void {
    if (this.closed || this.background || this.pending.length === 0 || Date.now() < this.retryAt) return;
    this.background = this.serialize(() => this.drain('full-batches'))
      .catch(() => undefined) // logged in `failed`; the next tick after the backoff retries
      .finally(() => {
        this.background = undefined;
      });
  }

  private serialize(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes batches; on a failed batch, keeps it and rejects. `empty` (flush, close) writes until
   * nothing is queued. The background flusher (`full-batches`) writes what is queued, then goes on
   * only while a full batch waits: the records that arrived during the last INSERT wait for the
   * next tick or the next full batch. Writing them at once made, under steady load, one INSERT and
   * one commit per handful of decisions (batches as small as what arrives during one INSERT),
   * which cost PostgreSQL several times the CPU per record of a full batch.
   */
  private async drain(until: 'empty' | 'full-batches' = 'empty'): Promise<void> {
    const goOnFrom = until === 'empty' ? 1 : this.batchSize;
    for (let first = true; this.pending.length >= (first ? 1 : goOnFrom); first = false) {
      const batch = this.pending.splice(0, this.batchSize);
      this.inFlight = batch.length;
      try {
        await this.write(batch);
      } catch (error) {
        this.inFlight = 0;
        // Rows refused for their content before the failure are set aside; the rest go back first in line.
        this.settle(batch.filter((p) => p.rejected));
        this.pending.unshift(...batch.filter((p) => !p.rejected));
        this.failed(error);
        throw error;
      }
      this.inFlight = 0;
      this.written += batch.filter((p) => !p.rejected).length;
      this.settle(batch);
      this.recovered();
    }
  }

  /** Inserts a batch; isolates rows refused for their content by halving, and sets them aside. */
  private async write(batch: Pending[]): Promise<void> {
    const rows = batch.filter((p) => !p.rejected);
    if (rows.length === 0) return;
    try {
      await this.insert(rows.map((p) => p.record));
    } catch (error) {
      const state = sqlState(error);
      if (state === undefined || !CONTENT_ERROR_CLASSES.includes(state.slice(0, 2))) throw error;
      const [only] = rows;
      if (rows.length === 1 && only) return this.storeEscapedOrReject(only, `${state} ${messageOf(error)}`);
      const half = Math.ceil(rows.length / 2);
      await this.write(rows.slice(0, half));
      await this.write(rows.slice(half));
    }
  }

  private async insert(records: AuditRecordText[]): Promise<void> {
    await this.dataSource.query(this.insertStatement(), [auditInsertParameter(records)]);
  }

  /** For the table named from the DataSource's metadata: the entity has no schema, the service's DataSource sets it. */
  private insertStatement(): string {
    if (!this.insertSql) {
      const { schema, tableName } = this.dataSource.getMetadata(DecisionAuditRecord);
      const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
      this.insertSql = auditInsertSql(schema ? `${quote(schema)}.${quote(tableName)}` : quote(tableName));
    }
    return this.insertSql;
  }

  /**
   * A single row refused for its content: an answered decision is stored in escaped form (see
   * `escapedAuditRecord`) rather than dropped; only if that is refused too is it set aside.
   */
  private async storeEscapedOrReject(pending: Pending, reason: string): Promise<void> {
    const escaped = escapedAuditRecord(pending.record);
    if (escaped) {
      try {
        await this.insert([escaped]);
        this.escapedCount++;
        this.logger.error(`Audit record ${pending.record.decisionId} stored with its unstorable characters escaped (${reason})`);
        return;
      } catch (error) {
        const state = sqlState(error);
        if (state === undefined || !CONTENT_ERROR_CLASSES.includes(state.slice(0, 2))) throw error;
      }
    }
    this.reject(pending, reason);
  }

  private reject(pending: Pending, reason: string): void {
    pending.rejected = true;
    this.rejectedCount++;
    this.rejectedKept.push(pending.record);
    if (this.rejectedKept.length > MAX_REJECTED_KEPT) this.rejectedKept.shift();
    this.logger.error(`Audit record ${pending.record.decisionId} refused by the database, set aside: ${reason}`);
    if (!this.spool) return;
    try {
      this.spool.appendRejected(pending.record, reason);
    } catch (error) {
      this.logger.error(`Could not keep refused audit record ${pending.record.decisionId} in ${this.spool.rejectedPath}: ${messageOf(error)}`);
    }
  }

  /** These records are done with (written or set aside): once no spooled record is left, the spool file goes. */
  private settle(done: Pending[]): void {
    const spooled = done.filter((p) => p.spooled).length;
    if (spooled === 0) return;
    this.spooledOutstanding -= spooled;
    if (this.spooledOutstanding > 0) return;
    // The journal's file is also written asynchronously: it is emptied in its turn, and only if no
    // record was journaled since.
    if (this.journal) void this.journal.truncateIf(() => this.spooledOutstanding === 0).catch(() => undefined);
    else this.spool?.clear();
  }

  private recovered(): void {
    if (this.failures > 0) this.logger.log(`Audit writes recovered after ${this.failures} failed attempt(s)`);
    this.failures = 0;
    this.lastError = undefined;
    this.retryAt = 0;
    if (this.refusing && this.backlog() < this.maxBacklog) {
      this.refusing = false;
      this.logger.log('Accepting decisions again: the audit backlog is below its bound');
    }
  }

  private failed(error: unknown): void {
    this.failures++;
    this.lastError = messageOf(error);
    this.retryAt = Date.now() + this.backoffMs();
    this.spoolWaiting();
    if (this.failures === 1) {
      const kept = this.spool ? `kept and spooled to ${this.spool.spoolPath}` : 'kept in memory';
      this.logger.warn(`Audit writes failing, ${this.backlog()} record(s) ${kept}, retrying: ${this.lastError}`);
    }
  }

  private backoffMs(): number {
    return Math.min(this.retryMaxDelayMs, this.retryInitialDelayMs * 2 ** Math.max(0, this.failures - 1));
  }

  /** Appends every waiting record not yet on disk. A disk failure leaves them in memory (and is retried next time). */
  private spoolWaiting(): void {
    if (!this.spool) return;
    const unspooled = this.pending.filter((p) => !p.spooled && !p.rejected);
    if (unspooled.length === 0) return;
    try {
      this.spool.append(unspooled.map((p) => p.record));
    } catch (error) {
      this.logger.error(`Could not spool ${unspooled.length} audit record(s) to ${this.spool.spoolPath}: ${messageOf(error)}`);
      return;
    }
    for (const p of unspooled) p.spooled = true;
    this.spooledOutstanding += unspooled.length;
  }

  private async shutdown(timeoutMs: number): Promise<AuditCloseResult> {
    this.closed = true;
    clearInterval(this.timer);
    if (this.kick) clearImmediate(this.kick);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.serialize(() => this.drain());
        break;
      } catch {
        const wait = Math.min(this.backoffMs(), deadline - Date.now());
        if (wait <= 0) break;
        await sleep(wait);
      }
    }
    await this.serialize(async () => this.spoolWaiting());
    await this.journal?.close();
    this.spool?.release();
    const remaining = this.backlog();
    const spooled = this.pending.filter((p) => p.spooled).length;
    if (remaining > 0 && spooled === remaining) {
      this.logger.warn(`Closed with ${remaining} audit record(s) unwritten, kept in ${this.spool?.spoolPath} for the next start`);
    } else if (remaining > 0) {
      this.logger.error(`Closed with ${remaining - spooled} audit record(s) unwritten and not on disk: they are lost (${this.lastError})`);
    }
    for (const untrack of this.untrackMetrics) untrack();
    return { remaining, spooled };
  }
}

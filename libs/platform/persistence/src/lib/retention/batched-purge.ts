import { DataSource } from 'typeorm';

export interface BatchedPurge {
  /** Schema-qualified, quoted table name, e.g. `"authz"."policy_change_log"`. */
  table: string;
  /** The instant column compared with the cutoff (quoted name). */
  timeColumn: string;
  /** Columns identifying one row (quoted names): the primary key. */
  keyColumns: readonly string[];
  /** Rows strictly older than this go. */
  cutoff: Date;
  /** Rows deleted per statement. */
  batchSize: number;
}

export interface PurgeResult {
  rows: number;
  batches: number;
  ms: number;
}

/**
 * Deletes the rows older than the cutoff in batches of `batchSize`, each its own short statement
 * (autocommit): no lock is held across batches and concurrent writers wait at most one batch. The
 * batch is chosen by primary key, not `ctid`, so it stays exact on a partitioned table (a ctid is
 * only unique inside one partition). Stops at the first batch smaller than `batchSize`.
 */
export async function purgeInBatches(dataSource: DataSource, purge: BatchedPurge): Promise<PurgeResult> {
  if (!Number.isInteger(purge.batchSize) || purge.batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${purge.batchSize}`);
  const keys = purge.keyColumns.join(', ');
  const sql = `DELETE FROM ${purge.table} WHERE (${keys}) IN (SELECT ${keys} FROM ${purge.table} WHERE ${purge.timeColumn} < $1 LIMIT ${purge.batchSize})`;
  const started = performance.now();
  let rows = 0;
  let batches = 0;
  for (;;) {
    const result: unknown = await dataSource.query(sql, [purge.cutoff]);
    const deleted = affectedRows(result);
    batches++;
    rows += deleted;
    if (deleted < purge.batchSize) break;
  }
  return { rows, batches, ms: Math.round(performance.now() - started) };
}

/** TypeORM's postgres driver answers a DELETE with `[rows, count]`. */
function affectedRows(result: unknown): number {
  if (Array.isArray(result) && typeof result[1] === 'number') return result[1];
  throw new Error(`unexpected DELETE result ${JSON.stringify(result)?.slice(0, 100)}`);
}

/** The instant `days` before `now`. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

import { DataSource, EntityManager } from 'typeorm';

/** The parent table and the names of its monthly partitions (`decision_audit_p202611`) and default. */
export const AUDIT_TABLE = '"authz_audit"."decision_audit"';
const SCHEMA = 'authz_audit';
const PARENT = 'decision_audit';
const MONTHLY = /^decision_audit_p(\d{4})(\d{2})$/;
export const DEFAULT_PARTITION = 'decision_audit_pdefault';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** First instant (UTC) of the month of `date`, `months` later. */
export function monthStart(date: Date, months = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

export function partitionName(month: Date): string {
  return `${PARENT}_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month a partition name covers, or undefined for any other table. */
export function monthOfPartition(name: string): Date | undefined {
  const match = MONTHLY.exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : undefined;
}

/** The monthly partitions of the audit, oldest first. */
export async function listMonthlyPartitions(db: Queryable): Promise<Array<{ name: string; month: Date }>> {
  const rows: Array<{ name: string }> = await db.query(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
      WHERE n.nspname = $1 AND p.relname = $2`,
    [SCHEMA, PARENT],
  );
  return rows
    .flatMap((r) => {
      const month = monthOfPartition(r.name);
      return month ? [{ name: r.name, month }] : [];
    })
    .sort((a, b) => a.month.getTime() - b.month.getTime());
}

/**
 * Creates the partition of `month` unless it exists. Rows of that month already caught by the
 * default partition (the month was not created ahead in time) move into it in the same
 * transaction: a partition cannot be attached while the default holds rows of its range.
 */
export async function ensureMonthlyPartition(dataSource: DataSource, month: Date): Promise<boolean> {
  const name = partitionName(month);
  const from = monthStart(month).toISOString();
  const to = monthStart(month, 1).toISOString();
  return dataSource.transaction(async (m) => {
    // Instances starting together must not both create the month.
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('authz_audit.decision_audit partitions'))`);
    const [exists] = await m.query(`SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`, [
      SCHEMA,
      name,
    ]);
    if (exists) return false;
    const table = `"${SCHEMA}"."${name}"`;
    const fallback = `"${SCHEMA}"."${DEFAULT_PARTITION}"`;
    await m.query(`CREATE TABLE ${table} (LIKE ${AUDIT_TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await m.query(`INSERT INTO ${table} SELECT * FROM ${fallback} WHERE "decided_at" >= $1 AND "decided_at" < $2`, [from, to]);
    await m.query(`DELETE FROM ${fallback} WHERE "decided_at" >= $1 AND "decided_at" < $2`, [from, to]);
    await m.query(`ALTER TABLE ${AUDIT_TABLE} ATTACH PARTITION ${table} FOR VALUES FROM ('${from}') TO ('${to}')`);
    return true;
  });
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Months created ahead by the migration itself; the retention task keeps creating them after. */
export const AUDIT_PARTITIONS_AHEAD_AT_MIGRATION = 3;

const COLUMNS = `
  "decision_id" uuid NOT NULL,
  "decided_at" timestamptz NOT NULL,
  "tenant_id" text NOT NULL,
  "caller_kind" text NOT NULL,
  "subject" text NOT NULL,
  "client_id" text,
  "actor" text,
  "action" text NOT NULL,
  "module" text NOT NULL,
  "resource_type" text NOT NULL,
  "resource_id" text,
  "resource_facts" json NOT NULL DEFAULT '{}'::json,
  "outcome" text NOT NULL,
  "evaluations" json NOT NULL,
  "cached" boolean NOT NULL,
  "latency_ms" real NOT NULL,
  "correlation_id" text,
  "revisions" json,
  "failure" text`;

const INDEXES = [
  `CREATE INDEX "IX_decision_audit_tenant_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "decided_at" DESC)`,
  `CREATE INDEX "IX_decision_audit_tenant_subject_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "subject", "decided_at" DESC)`,
  `CREATE INDEX "IX_decision_audit_tenant_outcome_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "outcome", "decided_at" DESC)`,
];

const month = (date: Date, add = 0) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + add, 1));
const name = (m: Date) => `decision_audit_p${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`;

/**
 * The decision audit, the fastest-growing table of the fleet, becomes a table partitioned by month
 * of `decided_at`, so its retention purge is a partition drop rather than millions of deletes
 * (`DecisionAuditRetention`). Monthly partitions cover every month of the existing rows up to
 * three months ahead; a DEFAULT partition catches anything outside them, so an insert never fails
 * for want of a partition. The primary key becomes (decision_id, decided_at): a unique key of a
 * partitioned table must hold the partition key, and a replayed record carries both.
 *
 * The rows are copied into the new table inside the migration's transaction: on a large audit
 * table, run it in a maintenance window (the audit writer spools meanwhile).
 */
export class PartitionDecisionAudit1763700000110 implements MigrationInterface {
  name = 'PartitionDecisionAudit1763700000110';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "authz_audit"."decision_audit" RENAME TO "decision_audit_unpartitioned"`);
    await q.query(`ALTER TABLE "authz_audit"."decision_audit_unpartitioned" RENAME CONSTRAINT "decision_audit_pkey" TO "decision_audit_unpartitioned_pkey"`);
    await q.query(`CREATE TABLE "authz_audit"."decision_audit" (${COLUMNS}, PRIMARY KEY ("decision_id", "decided_at")) PARTITION BY RANGE ("decided_at")`);
    await q.query(`CREATE TABLE "authz_audit"."decision_audit_pdefault" PARTITION OF "authz_audit"."decision_audit" DEFAULT`);
    const [{ oldest }] = await q.query(`SELECT min("decided_at") AS oldest FROM "authz_audit"."decision_audit_unpartitioned"`);
    const now = new Date();
    const last = month(now, AUDIT_PARTITIONS_AHEAD_AT_MIGRATION);
    for (let m = month(oldest ? new Date(oldest) : now); m <= last; m = month(m, 1)) {
      await q.query(
        `CREATE TABLE "authz_audit"."${name(m)}" PARTITION OF "authz_audit"."decision_audit" FOR VALUES FROM ('${m.toISOString()}') TO ('${month(m, 1).toISOString()}')`,
      );
    }
    await q.query(`INSERT INTO "authz_audit"."decision_audit" SELECT * FROM "authz_audit"."decision_audit_unpartitioned"`);
    await q.query(`DROP TABLE "authz_audit"."decision_audit_unpartitioned"`);
    for (const index of INDEXES) await q.query(index);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "authz_audit"."decision_audit_plain" (${COLUMNS}, CONSTRAINT "decision_audit_plain_pkey" PRIMARY KEY ("decision_id"))`);
    await q.query(`INSERT INTO "authz_audit"."decision_audit_plain" SELECT * FROM "authz_audit"."decision_audit"`);
    await q.query(`DROP TABLE "authz_audit"."decision_audit"`);
    await q.query(`ALTER TABLE "authz_audit"."decision_audit_plain" RENAME TO "decision_audit"`);
    await q.query(`ALTER TABLE "authz_audit"."decision_audit" RENAME CONSTRAINT "decision_audit_plain_pkey" TO "decision_audit_pkey"`);
    for (const index of INDEXES) await q.query(index);
  }
}

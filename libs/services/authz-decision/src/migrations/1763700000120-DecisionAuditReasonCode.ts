import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 37: the decision audit is read by people, not only kept. Each record keeps the merge rule
 * that decided (`reason_code`) and the merge's refusal text (`reason`), and two indexes serve the
 * filters a person starts from: who decided (the console's default view shows people's decisions,
 * where the fleet's own application callers make most of the rows) and a correlation id quoted by
 * support. The other filters (client, module, resource type, action, reason code) narrow the
 * tenant's newest-first scan. Records written before keep `reason_code` NULL: rewriting months of
 * the fleet's largest table in a migration is not worth a filter on old rows.
 *
 * An index on the partitioned parent is created on every partition, present and future.
 */
export class DecisionAuditReasonCode1763700000120 implements MigrationInterface {
  name = 'DecisionAuditReasonCode1763700000120';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "authz_audit"."decision_audit" ADD COLUMN "reason_code" text, ADD COLUMN "reason" text`);
    await q.query(
      `CREATE INDEX "IX_decision_audit_tenant_caller_kind_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "caller_kind", "decided_at" DESC)`,
    );
    await q.query(
      `CREATE INDEX "IX_decision_audit_tenant_correlation_id" ON "authz_audit"."decision_audit" ("tenant_id", "correlation_id") WHERE "correlation_id" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "authz_audit"."IX_decision_audit_tenant_correlation_id"`);
    await q.query(`DROP INDEX "authz_audit"."IX_decision_audit_tenant_caller_kind_decided_at"`);
    await q.query(`ALTER TABLE "authz_audit"."decision_audit" DROP COLUMN "reason", DROP COLUMN "reason_code"`);
  }
}

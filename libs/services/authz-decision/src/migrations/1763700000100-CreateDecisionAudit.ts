import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The decision audit table in authz-decision's own schema. Strings are `text`: a value longer
 * than some guessed limit must not make an audit batch fail (see DecisionAuditWriter for what
 * happens to a row PostgreSQL still refuses). Indexes serve the audit query: always by tenant,
 * newest first, optionally by subject or outcome.
 */
export class CreateDecisionAudit1763700000100 implements MigrationInterface {
  name = 'CreateDecisionAudit1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "authz_audit"."decision_audit" (
        "decision_id" uuid PRIMARY KEY,
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
        "resource_facts" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "outcome" text NOT NULL,
        "evaluations" jsonb NOT NULL,
        "cached" boolean NOT NULL,
        "latency_ms" real NOT NULL,
        "correlation_id" text,
        "revisions" jsonb,
        "failure" text
      )`);
    await q.query(`CREATE INDEX "IX_decision_audit_tenant_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "decided_at" DESC)`);
    await q.query(`CREATE INDEX "IX_decision_audit_tenant_subject_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "subject", "decided_at" DESC)`);
    await q.query(`CREATE INDEX "IX_decision_audit_tenant_outcome_decided_at" ON "authz_audit"."decision_audit" ("tenant_id", "outcome", "decided_at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "authz_audit"."decision_audit"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit of the runtime's high-privilege operations (docs/runtime.md, Administrative operations):
 * start at a node, reset, transfer of the applicant and proxy (batch) completion. One row per change,
 * written in the change's own transaction, so the audit holds a row exactly when the change
 * committed.
 *
 * - `subject` is the token's subject (on whose authority), `actor` the acting subject of a delegated
 *   token (null otherwise), `on_behalf_of` the assignee a proxy completion voted for.
 * - `before` / `after`: the state the operation changed (status, open nodes, initiator, version;
 *   for a task its status and assignee).
 * - Append-only: a trigger refuses UPDATE and DELETE, so not even the service's own role rewrites
 *   history by mistake (a retention purge, should one come, would be a deliberate migration).
 */
export class CreateAdminAuditTable1764500000000 implements MigrationInterface {
  name = 'CreateAdminAuditTable1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "workflow"."admin_audit" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "operation" varchar(32) NOT NULL,
        "subject" varchar(255) NOT NULL,
        "actor" varchar(255),
        "on_behalf_of" varchar(255),
        "instance_id" uuid NOT NULL REFERENCES "workflow"."instance" ("id"),
        "task_id" uuid REFERENCES "workflow"."task" ("id"),
        "before" jsonb,
        "after" jsonb NOT NULL,
        "reason" text,
        "correlation_id" varchar(128),
        "created_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "ck_admin_audit_operation" CHECK ("operation" IN ('start-at-node', 'reset', 'transfer-applicant', 'batch-complete'))
      )`);
    await q.query(`CREATE INDEX "ix_admin_audit_instance" ON "workflow"."admin_audit" ("tenant_id", "instance_id", "created_at")`);
    await q.query(`
      CREATE FUNCTION "workflow"."admin_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'workflow.admin_audit is append-only';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER "tr_admin_audit_append_only" BEFORE UPDATE OR DELETE ON "workflow"."admin_audit"
        FOR EACH ROW EXECUTE FUNCTION "workflow"."admin_audit_append_only"()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "workflow"."admin_audit"`);
    await q.query(`DROP FUNCTION "workflow"."admin_audit_append_only"()`);
  }
}

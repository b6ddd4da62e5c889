import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the management routes need of the store (docs/management.md).
 *
 * - `legacy_import`: one row per imported legacy instance, keyed by (tenant, source id): the
 *   idempotency key of the import. `checksum` is the SHA-256 of the canonical import body, so a
 *   second import of the same source tells "the same body again" (200, the first instance) from "a
 *   different body" (409). Deleting the instance deletes its row (cascade): the source may then be
 *   imported again. The foreign key is checked at commit (deferred): the row is written first, as
 *   the lock that makes concurrent imports of one source wait for each other.
 * - `admin_audit` keeps the rows of deleted instances and covers the management operations: the
 *   foreign keys to `instance` and `task` go (the table is append-only, so a row cannot follow its
 *   instance out, and the audit of a deletion names what no longer exists); `instance_id` becomes
 *   optional and `definition_id` names the version a definition deletion removed.
 * - `instance.definition_version_id` loses its foreign key: a terminal instance outlives the version
 *   it ran on when that version is deleted, and keeps its id (the history of what ran).
 */
export class CreateManagementStore1764650000000 implements MigrationInterface {
  name = 'CreateManagementStore1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "workflow"."legacy_import" (
        "tenant_id" varchar(64) NOT NULL,
        "source_id" varchar(200) NOT NULL,
        -- No foreign key: the record outlives the instance's move to the archive (docs/history.md), so a
        -- re-import of the source still finds it; deleting the instance deletes it explicitly.
        "instance_id" uuid NOT NULL,
        "checksum" char(64) NOT NULL,
        "imported_by" varchar(255) NOT NULL,
        "imported_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "source_id")
      )`);
    await q.query(`CREATE UNIQUE INDEX "uq_legacy_import_instance" ON "workflow"."legacy_import" ("instance_id")`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT IF EXISTS "admin_audit_instance_id_fkey"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT IF EXISTS "admin_audit_task_id_fkey"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" ALTER COLUMN "instance_id" DROP NOT NULL`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" ADD COLUMN "definition_id" uuid`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT "ck_admin_audit_operation"`);
    await q.query(`
      ALTER TABLE "workflow"."admin_audit" ADD CONSTRAINT "ck_admin_audit_operation" CHECK ("operation" IN (
        'start-at-node', 'reset', 'transfer-applicant', 'batch-complete',
        'import-instance', 'delete-definition', 'delete-instance', 'refresh-candidates'))`);
    await q.query(
      `ALTER TABLE "workflow"."admin_audit" ADD CONSTRAINT "ck_admin_audit_target" CHECK ("instance_id" IS NOT NULL OR "definition_id" IS NOT NULL)`,
    );
    await q.query(
      `CREATE INDEX "ix_admin_audit_definition" ON "workflow"."admin_audit" ("tenant_id", "definition_id", "created_at") WHERE "definition_id" IS NOT NULL`,
    );
    await q.query(`ALTER TABLE "workflow"."instance" DROP CONSTRAINT IF EXISTS "instance_definition_version_id_fkey"`);
    // The statistics' per-status counts and the deletion's "still running on this version?" read this.
    await q.query(`CREATE INDEX "ix_instance_version_status" ON "workflow"."instance" ("tenant_id", "definition_version_id", "status")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "workflow"."ix_instance_version_status"`);
    await q.query(
      `ALTER TABLE "workflow"."instance" ADD CONSTRAINT "instance_definition_version_id_fkey" FOREIGN KEY ("definition_version_id") REFERENCES "workflow"."definition_version" ("id")`,
    );
    await q.query(`DROP INDEX "workflow"."ix_admin_audit_definition"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT "ck_admin_audit_target"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT "ck_admin_audit_operation"`);
    await q.query(
      `ALTER TABLE "workflow"."admin_audit" ADD CONSTRAINT "ck_admin_audit_operation" CHECK ("operation" IN ('start-at-node', 'reset', 'transfer-applicant', 'batch-complete'))`,
    );
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP COLUMN "definition_id"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" ALTER COLUMN "instance_id" SET NOT NULL`);
    await q.query(`DROP TABLE "workflow"."legacy_import"`);
  }
}

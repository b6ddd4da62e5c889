import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The instance history (docs/history.md).
 *
 * - `instance_event`: the append-only event log, one row per runtime event, written by the runtime in
 *   the transaction of the change it reports (beside its outbox row), so the log and the state never
 *   disagree. `seq` counts per instance from 1; every runtime write holds the instance row's lock,
 *   so `max(seq) + 1` is safe, and the primary key backs it. `business_key` and `definition_key` are
 *   copied from the instance (they never change) so the business-key timeline is one indexed read.
 * - `instance_archive`, `task_archive`, `instance_event_archive`: where archiving moves a terminal
 *   instance, its tasks and its events, out of the hot tables the runtime and the todo list read.
 *   Explicit column lists (archive code names its columns) keep a column added to the hot tables
 *   later from breaking the archive.
 * - `tenant_settings`: per-tenant settings of the engine; for now the retention of archived history
 *   (null: the service default `WORKFLOW_HISTORY_RETENTION_DAYS`).
 *
 * Append-only by trigger (`workflow.history_append_only`): UPDATE is always refused, DELETE only
 * inside a transaction that declared its purpose with `set_config('workflow.history_removal', …,
 * true)` and only for the purposes the trigger lists: the hot log allows `archive` (its rows move)
 * and `purge`, the archive tables and `admin_audit` only `purge` (the retention job). The setting is
 * transaction-local, so a stray DELETE anywhere else still fails. `admin_audit` loses its foreign
 * keys to the hot instance and task tables: its rows stay where they are when the instance moves,
 * and are purged with the instance's archived history; its own append-only trigger becomes this one.
 */
export class CreateHistoryTables1764660000000 implements MigrationInterface {
  name = 'CreateHistoryTables1764660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION "workflow"."history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND coalesce(current_setting('workflow.history_removal', true), '') = ANY (TG_ARGV) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'workflow.% is append-only (% refused)', TG_TABLE_NAME, TG_OP;
      END
      $$`);

    const eventColumns = `
        "tenant_id" varchar(64) NOT NULL,
        "instance_id" uuid NOT NULL,
        "seq" integer NOT NULL,
        "event_id" varchar(128) NOT NULL,
        "event_type" varchar(64) NOT NULL,
        "actor" varchar(255),
        "task_id" uuid,
        "node_key" varchar(64),
        "comment" text,
        "business_key" varchar(200) NOT NULL,
        "definition_key" varchar(64) NOT NULL,
        "payload" jsonb NOT NULL,
        "occurred_at" timestamptz NOT NULL,
        CONSTRAINT "ck_%_seq_positive" CHECK ("seq" > 0)`;
    await q.query(`
      CREATE TABLE "workflow"."instance_event" (${eventColumns.replace('%', 'instance_event')},
        CONSTRAINT "pk_instance_event" PRIMARY KEY ("tenant_id", "instance_id", "seq"),
        CONSTRAINT "fk_instance_event_instance" FOREIGN KEY ("instance_id") REFERENCES "workflow"."instance" ("id")
      )`);
    await q.query(`CREATE INDEX "ix_instance_event_business_key" ON "workflow"."instance_event" ("tenant_id", "business_key", "occurred_at" DESC)`);

    await q.query(`
      CREATE TABLE "workflow"."instance_archive" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "definition_key" varchar(64) NOT NULL,
        -- No foreign key: an ended instance outlives a deleted version (as workflow.instance does, docs/management.md).
        "definition_version_id" uuid NOT NULL,
        "business_key" varchar(200) NOT NULL,
        "initiator" varchar(255) NOT NULL,
        "status" varchar(16) NOT NULL,
        "variables" jsonb NOT NULL,
        "position" jsonb NOT NULL,
        "priority" integer NOT NULL,
        "version" integer NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        "ended_at" timestamptz NOT NULL,
        "archived_at" timestamptz NOT NULL DEFAULT now(),
        "archived_by" varchar(255) NOT NULL
      )`);
    await q.query(`CREATE INDEX "ix_instance_archive_business_key" ON "workflow"."instance_archive" ("tenant_id", "business_key")`);
    // The retention job's read: a tenant's archived instances by end time.
    await q.query(`CREATE INDEX "ix_instance_archive_ended" ON "workflow"."instance_archive" ("tenant_id", "ended_at")`);

    await q.query(`
      CREATE TABLE "workflow"."task_archive" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "instance_id" uuid NOT NULL REFERENCES "workflow"."instance_archive" ("id"),
        "node_key" varchar(64) NOT NULL,
        "visit" integer NOT NULL,
        "seq" integer NOT NULL,
        "assignee" varchar(255) NOT NULL,
        "owner" varchar(255),
        "status" varchar(16) NOT NULL,
        "comment" text,
        "read_at" timestamptz,
        "decided_at" timestamptz,
        "decided_by" varchar(255),
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX "ix_task_archive_instance" ON "workflow"."task_archive" ("instance_id", "node_key", "visit")`);

    await q.query(`
      CREATE TABLE "workflow"."instance_event_archive" (${eventColumns.replace('%', 'instance_event_archive')},
        CONSTRAINT "pk_instance_event_archive" PRIMARY KEY ("tenant_id", "instance_id", "seq"),
        CONSTRAINT "fk_instance_event_archive_instance" FOREIGN KEY ("instance_id") REFERENCES "workflow"."instance_archive" ("id")
      )`);
    await q.query(
      `CREATE INDEX "ix_instance_event_archive_business_key" ON "workflow"."instance_event_archive" ("tenant_id", "business_key", "occurred_at" DESC)`,
    );

    // The business-key routes read every instance of a key across definitions.
    await q.query(`CREATE INDEX "ix_instance_business_key" ON "workflow"."instance" ("tenant_id", "business_key")`);

    await q.query(`
      CREATE TABLE "workflow"."tenant_settings" (
        "tenant_id" varchar(64) PRIMARY KEY,
        "history_retention_days" integer,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "updated_by" varchar(255) NOT NULL,
        CONSTRAINT "ck_tenant_settings_retention" CHECK ("history_retention_days" IS NULL OR "history_retention_days" BETWEEN 1 AND 36500)
      )`);

    const appendOnly = (table: string, ...purposes: string[]) =>
      q.query(
        `CREATE TRIGGER "tr_${table}_append_only" BEFORE UPDATE OR DELETE ON "workflow"."${table}"
           FOR EACH ROW EXECUTE FUNCTION "workflow"."history_append_only"(${purposes.map((p) => `'${p}'`).join(', ')})`,
      );
    await appendOnly('instance_event', 'archive', 'purge');
    await appendOnly('instance_event_archive', 'purge');
    await appendOnly('instance_archive', 'purge');
    await appendOnly('task_archive', 'purge');

    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT IF EXISTS "admin_audit_instance_id_fkey"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT IF EXISTS "admin_audit_task_id_fkey"`);
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT "ck_admin_audit_operation"`);
    await q.query(
      `ALTER TABLE "workflow"."admin_audit" ADD CONSTRAINT "ck_admin_audit_operation"
         CHECK ("operation" IN (
           'start-at-node', 'reset', 'transfer-applicant', 'batch-complete',
           'import-instance', 'delete-definition', 'delete-instance', 'refresh-candidates', 'archive'))`,
    );
    await q.query(`DROP TRIGGER "tr_admin_audit_append_only" ON "workflow"."admin_audit"`);
    await q.query(`DROP FUNCTION "workflow"."admin_audit_append_only"()`);
    await appendOnly('admin_audit', 'purge');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "tr_admin_audit_append_only" ON "workflow"."admin_audit"`);
    await q.query(`
      CREATE FUNCTION "workflow"."admin_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'workflow.admin_audit is append-only';
      END
      $$`);
    await q.query(
      `CREATE TRIGGER "tr_admin_audit_append_only" BEFORE UPDATE OR DELETE ON "workflow"."admin_audit"
         FOR EACH ROW EXECUTE FUNCTION "workflow"."admin_audit_append_only"()`,
    );
    await q.query(`ALTER TABLE "workflow"."admin_audit" DROP CONSTRAINT "ck_admin_audit_operation"`);
    await q.query(
      `ALTER TABLE "workflow"."admin_audit" ADD CONSTRAINT "ck_admin_audit_operation" CHECK ("operation" IN (
         'start-at-node', 'reset', 'transfer-applicant', 'batch-complete',
         'import-instance', 'delete-definition', 'delete-instance', 'refresh-candidates'))`,
    );
    await q.query(`DROP TABLE "workflow"."tenant_settings"`);
    await q.query(`DROP INDEX "workflow"."ix_instance_business_key"`);
    await q.query(`DROP TABLE "workflow"."instance_event_archive"`);
    await q.query(`DROP TABLE "workflow"."task_archive"`);
    await q.query(`DROP TABLE "workflow"."instance_archive"`);
    await q.query(`DROP TABLE "workflow"."instance_event"`);
    await q.query(`DROP FUNCTION "workflow"."history_append_only"()`);
  }
}

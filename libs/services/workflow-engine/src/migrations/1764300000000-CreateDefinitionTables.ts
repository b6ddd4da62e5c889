import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The definition store (docs/definitions.md). Every table is keyed by (tenant_id, key) first, so
 * every query carries the tenant predicate and uses the primary key or an index starting with it.
 *
 * - `definition`: one row per key, created by the first publish or legacy deploy. It is the lock of
 *   everything under the key: publish, grayscale, complete-grayscale and rollback take it
 *   `FOR UPDATE`, so version numbers are drawn and the binding moved one writer at a time (a key
 *   with no version yet has no binding row to lock, hence this anchor).
 * - `definition_version`: immutable snapshots; (tenant, key, version) is unique, a backstop
 *   for the lock.
 * - `definition_draft`: the work in progress, at most one per key, with its optimistic revision.
 * - `definition_binding`: which version is active, which one was before it, and the status marker.
 * - `definition_deployment`: the history of every binding change, append-only.
 */
export class CreateDefinitionTables1764300000000 implements MigrationInterface {
  name = 'CreateDefinitionTables1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "workflow"."definition" (
        "tenant_id" varchar(64) NOT NULL,
        "key" varchar(64) NOT NULL,
        "created_by" varchar(255) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "key"),
        CONSTRAINT "ck_definition_key" CHECK ("key" ~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$')
      )`);
    await q.query(`
      CREATE TABLE "workflow"."definition_version" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "key" varchar(64) NOT NULL,
        "version" integer NOT NULL,
        "definition" jsonb NOT NULL,
        "checksum" char(64) NOT NULL,
        "source" varchar(16) NOT NULL,
        "created_by" varchar(255) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "uq_definition_version" UNIQUE ("tenant_id", "key", "version"),
        CONSTRAINT "fk_definition_version_definition" FOREIGN KEY ("tenant_id", "key") REFERENCES "workflow"."definition" ("tenant_id", "key"),
        CONSTRAINT "ck_definition_version_positive" CHECK ("version" > 0),
        CONSTRAINT "ck_definition_version_source" CHECK ("source" IN ('publish', 'legacy-deploy'))
      )`);
    await q.query(`CREATE INDEX "ix_definition_version_tenant_id" ON "workflow"."definition_version" ("tenant_id", "id")`);
    await q.query(`
      CREATE TABLE "workflow"."definition_draft" (
        "tenant_id" varchar(64) NOT NULL,
        "key" varchar(64) NOT NULL,
        "definition" jsonb NOT NULL,
        "revision" integer NOT NULL,
        "updated_by" varchar(255) NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "key"),
        CONSTRAINT "ck_definition_draft_key" CHECK ("key" ~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'),
        CONSTRAINT "ck_definition_draft_revision_positive" CHECK ("revision" > 0)
      )`);
    await q.query(`
      CREATE TABLE "workflow"."definition_binding" (
        "tenant_id" varchar(64) NOT NULL,
        "key" varchar(64) NOT NULL,
        "active_version_id" uuid NOT NULL REFERENCES "workflow"."definition_version" ("id"),
        "previous_version_id" uuid REFERENCES "workflow"."definition_version" ("id"),
        "status" varchar(16) NOT NULL,
        "updated_by" varchar(255) NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "key"),
        CONSTRAINT "fk_definition_binding_definition" FOREIGN KEY ("tenant_id", "key") REFERENCES "workflow"."definition" ("tenant_id", "key"),
        CONSTRAINT "ck_definition_binding_status" CHECK ("status" IN ('active', 'grayscale')),
        CONSTRAINT "ck_definition_binding_previous" CHECK ("previous_version_id" IS NULL OR "previous_version_id" <> "active_version_id")
      )`);
    await q.query(`
      CREATE TABLE "workflow"."definition_deployment" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "key" varchar(64) NOT NULL,
        "action" varchar(24) NOT NULL,
        "from_version_id" uuid REFERENCES "workflow"."definition_version" ("id"),
        "to_version_id" uuid NOT NULL REFERENCES "workflow"."definition_version" ("id"),
        "actor" varchar(255) NOT NULL,
        "at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "fk_definition_deployment_definition" FOREIGN KEY ("tenant_id", "key") REFERENCES "workflow"."definition" ("tenant_id", "key"),
        CONSTRAINT "ck_definition_deployment_action" CHECK ("action" IN ('publish', 'legacy-deploy', 'grayscale', 'complete-grayscale', 'rollback'))
      )`);
    await q.query(`CREATE INDEX "ix_definition_deployment_key_at" ON "workflow"."definition_deployment" ("tenant_id", "key", "at" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "workflow"."definition_deployment"`);
    await q.query(`DROP TABLE "workflow"."definition_binding"`);
    await q.query(`DROP TABLE "workflow"."definition_draft"`);
    await q.query(`DROP TABLE "workflow"."definition_version"`);
    await q.query(`DROP TABLE "workflow"."definition"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The policy change log, field policies, permission requests, and role targets for shares.
 * `resource_relation.subject_kind` is read by authz-decision (`policy-facts/test-schema.sql` keeps
 * its copy in step, checked by `policy-store/policy-tables.int-spec.ts`).
 */
export class CreateGovernanceTables1763700000002 implements MigrationInterface {
  name = 'CreateGovernanceTables1763700000002';

  async up(q: QueryRunner): Promise<void> {
    // One row per committed change, written in the change's own transaction (with its outbox event).
    // tenant_id is null only for a global feature default.
    await q.query(`
      CREATE TABLE "authz"."policy_change_log" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "tenant_id" varchar(64),
        "actor" varchar(255) NOT NULL,
        "actor_kind" varchar(20) NOT NULL,
        "change" varchar(80) NOT NULL,
        "target_type" varchar(60) NOT NULL,
        "target_id" varchar(255) NOT NULL,
        "before" jsonb,
        "after" jsonb,
        "correlation_id" varchar(128),
        "occurred_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "ix_policy_change_log_tenant_time" ON "authz"."policy_change_log" ("tenant_id", "occurred_at" DESC, "id")`);

    // A share targets a user subject or a role (by its tenant-local name, like every relation row).
    await q.query(`ALTER TABLE "authz"."resource_relation" ADD COLUMN "subject_kind" varchar(10) NOT NULL DEFAULT 'user'`);
    await q.query(`ALTER TABLE "authz"."resource_relation" ADD CONSTRAINT "ck_resource_relation_subject_kind" CHECK ("subject_kind" IN ('user', 'role'))`);
    await q.query(`DROP INDEX "authz"."uq_resource_relation"`);
    await q.query(`
      CREATE UNIQUE INDEX "uq_resource_relation"
        ON "authz"."resource_relation" ("tenant_id", "subject", "resource_type", "resource_id", "relation", "subject_kind")`);

    // Field policy: what a role sees of one field of a resource type. Effect is an integer
    // enumeration like the ABAC verdict: 1 hidden, 2 masked, 3 read-only.
    await q.query(`
      CREATE TABLE "authz"."field_policy" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "tenant_id" varchar(64) NOT NULL,
        "module" varchar(60) NOT NULL,
        "resource_type" varchar(60) NOT NULL,
        "field" varchar(100) NOT NULL,
        "role_id" uuid NOT NULL,
        "role_name" varchar(100) NOT NULL,
        "effect" smallint NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "created_by" varchar(255) NOT NULL,
        CONSTRAINT "ck_field_policy_effect" CHECK ("effect" IN (1, 2, 3)),
        CONSTRAINT "fk_field_policy_role" FOREIGN KEY ("role_id", "tenant_id", "role_name")
          REFERENCES "authz"."role" ("id", "tenant_id", "name") ON DELETE CASCADE ON UPDATE CASCADE
      )`);
    await q.query(`
      CREATE UNIQUE INDEX "uq_field_policy" ON "authz"."field_policy" ("tenant_id", "module", "resource_type", "field", "role_id")`);

    // A request for permissions for a duration; approval creates a temporary grant (source
    // 'permission-request', source_id = this id). workflow_instance_id is set once approvals run
    // through the workflow engine.
    await q.query(`
      CREATE TABLE "authz"."permission_request" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "tenant_id" varchar(64) NOT NULL,
        "subject" varchar(255) NOT NULL,
        "permission_codes" text[] NOT NULL,
        "duration_seconds" integer NOT NULL,
        "reason" varchar(1000) NOT NULL,
        "status" varchar(20) NOT NULL DEFAULT 'pending',
        "decided_by" varchar(255),
        "decided_at" timestamptz,
        "decision_note" varchar(1000),
        "grant_id" uuid,
        "workflow_instance_id" varchar(200),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ck_permission_request_status" CHECK ("status" IN ('pending', 'approved', 'rejected', 'revoked', 'expired')),
        CONSTRAINT "ck_permission_request_duration" CHECK ("duration_seconds" > 0),
        CONSTRAINT "ck_permission_request_permissions" CHECK (cardinality("permission_codes") > 0)
      )`);
    await q.query(`CREATE INDEX "ix_permission_request_tenant_status" ON "authz"."permission_request" ("tenant_id", "status", "created_at")`);
    await q.query(`CREATE INDEX "ix_permission_request_subject" ON "authz"."permission_request" ("tenant_id", "subject")`);

    await q.query(`ALTER TABLE "authz"."delegated_grant" ADD COLUMN "reason" varchar(1000)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "authz"."delegated_grant" DROP COLUMN "reason"`);
    await q.query(`DROP TABLE "authz"."permission_request"`);
    await q.query(`DROP TABLE "authz"."field_policy"`);
    await q.query(`DROP INDEX "authz"."uq_resource_relation"`);
    await q.query(`DELETE FROM "authz"."resource_relation" WHERE "subject_kind" = 'role'`);
    await q.query(`ALTER TABLE "authz"."resource_relation" DROP CONSTRAINT "ck_resource_relation_subject_kind"`);
    await q.query(`ALTER TABLE "authz"."resource_relation" DROP COLUMN "subject_kind"`);
    await q.query(`
      CREATE UNIQUE INDEX "uq_resource_relation"
        ON "authz"."resource_relation" ("tenant_id", "subject", "resource_type", "resource_id", "relation")`);
    await q.query(`DROP TABLE "authz"."policy_change_log"`);
  }
}

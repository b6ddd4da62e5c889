import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `platform.tenant`: the tenants of the platform (ARCHITECTURE.md: operations owns them). The id is
 * the tenant id every `tenant_id` column of the fleet holds. `status_version` numbers status
 * changes so policy-management can ignore a stale report (see `AuthzRpc.tenantStatus`);
 * `bootstrapped_at` is set once policy-management confirmed the first administrator, so a tenant
 * whose bootstrap has not completed yet can be told apart. The platform tenant is never suspended.
 */
export class CreateTenantTable1764000000100 implements MigrationInterface {
  name = 'CreateTenantTable1764000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "platform"`);
    await q.query(`
      CREATE TABLE "platform"."tenant" (
        "id" varchar(64) PRIMARY KEY,
        "name" varchar(200) NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT 'active',
        "status_version" bigint NOT NULL DEFAULT 1,
        "admin_subject" varchar(255) NOT NULL,
        "bootstrapped_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "created_by" varchar(255) NOT NULL,
        CONSTRAINT "ck_tenant_id" CHECK ("id" ~ '^[a-z0-9][a-z0-9_-]*$'),
        CONSTRAINT "ck_tenant_name" CHECK (length("name") > 0),
        CONSTRAINT "ck_tenant_status" CHECK ("status" IN ('active', 'suspended')),
        CONSTRAINT "ck_tenant_status_version_positive" CHECK ("status_version" > 0),
        CONSTRAINT "ck_tenant_platform_active" CHECK ("id" <> 'default' OR "status" = 'active')
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "platform"."tenant"`);
  }
}

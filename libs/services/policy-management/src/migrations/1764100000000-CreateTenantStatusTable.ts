import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `authz.tenant_status`: the decision fact "this tenant is suspended", recorded on operations'
 * request (`authz.tenant.status`). No row means active. The platform tenant can never be
 * suspended, whoever writes: it would lock out the operators who could lift it.
 */
export class CreateTenantStatusTable1764100000000 implements MigrationInterface {
  name = 'CreateTenantStatusTable1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "authz"."tenant_status" (
        "tenant_id" varchar(64) PRIMARY KEY,
        "status" varchar(16) NOT NULL,
        "version" bigint NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "updated_by" varchar(255) NOT NULL,
        CONSTRAINT "ck_tenant_status_status" CHECK ("status" IN ('active', 'suspended')),
        CONSTRAINT "ck_tenant_status_version_positive" CHECK ("version" > 0),
        CONSTRAINT "ck_tenant_status_platform_active" CHECK ("tenant_id" <> 'default' OR "status" = 'active')
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "authz"."tenant_status"`);
  }
}

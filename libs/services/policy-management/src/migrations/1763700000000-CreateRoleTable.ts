import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRoleTable1763700000000 implements MigrationInterface {
  name = 'CreateRoleTable1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "authz"."role" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "tenant_id" varchar(64) NOT NULL,
        "name" varchar(100) NOT NULL,
        "description" varchar(500),
        "data_scope" varchar(20) NOT NULL DEFAULT 'tenant',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "uq_role_tenant_name" ON "authz"."role" ("tenant_id", "name")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "authz"."role"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /api/webhooks/deliveries` (issue 37) pages a tenant's deliveries newest first, across its
 * subscriptions: the existing (tenant, subscription, created_at) index serves only one subscription.
 */
export class DeliveryListIndex1764800000100 implements MigrationInterface {
  name = 'DeliveryListIndex1764800000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_delivery_tenant_created" ON "webhooks"."delivery" ("tenant_id", "created_at" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "webhooks"."ix_delivery_tenant_created"`);
  }
}

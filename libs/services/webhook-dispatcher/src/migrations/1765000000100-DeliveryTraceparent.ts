import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `delivery.traceparent` (issue 36): the W3C Trace Context of the event's consumer span (or of the
 * ingest or ping request) that created the delivery, so each attempt, whenever it runs, is a span of
 * that trace and sends it to the receiver as `traceparent`. Null while tracing is off.
 */
export class DeliveryTraceparent1765000000100 implements MigrationInterface {
  name = 'DeliveryTraceparent1765000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks"."delivery" ADD COLUMN "traceparent" varchar(55)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks"."delivery" DROP COLUMN "traceparent"`);
  }
}

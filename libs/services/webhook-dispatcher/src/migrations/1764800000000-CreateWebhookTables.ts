import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook dispatcher's store (libs/services/webhook-dispatcher/docs/deliveries.md and subscriptions.md):
 * - `subscription`: tenant-scoped, soft-deleted (`deleted_at`). The signing secret is kept
 *   encrypted (AES-256-GCM, `secret_key_version` names the key), never hashed: signing needs it.
 *   During a rotation's overlap the previous secret is kept beside it until `previous_secret_expires_at`.
 * - `delivery`: one per (subscription, event); the unique key makes fan-out idempotent. Pending
 *   deliveries carry their durable due time (`next_attempt_at`); a claim is a lease
 *   (`locked_until`), so a dispatcher that dies mid-attempt gives its deliveries back.
 * - `delivery_attempt`: the delivery log, one row per attempt (spec §2 fields plus latency).
 * - `dead_letter`: a delivery whose retries ran out; replay puts the same delivery back to pending.
 */
export class CreateWebhookTables1764800000000 implements MigrationInterface {
  name = 'CreateWebhookTables1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "webhooks"`);
    await q.query(`
      CREATE TABLE "webhooks"."subscription" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "callback_url" varchar(2048) NOT NULL,
        "event_types" jsonb NOT NULL,
        "description" varchar(500),
        "is_active" boolean NOT NULL DEFAULT true,
        "deactivated_reason" varchar(32),
        "max_retries" integer,
        "secret_ciphertext" text NOT NULL,
        "secret_key_version" integer NOT NULL,
        "secret_fingerprint" varchar(64) NOT NULL,
        "previous_secret_ciphertext" text,
        "previous_secret_key_version" integer,
        "previous_secret_fingerprint" varchar(64),
        "previous_secret_expires_at" timestamptz,
        "revision" integer NOT NULL DEFAULT 1,
        "created_by" varchar(255) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_by" varchar(255) NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "deleted_by" varchar(255),
        "deleted_at" timestamptz,
        CONSTRAINT "ck_subscription_event_types" CHECK (jsonb_typeof("event_types") = 'array' AND jsonb_array_length("event_types") > 0),
        CONSTRAINT "ck_subscription_max_retries" CHECK ("max_retries" IS NULL OR "max_retries" BETWEEN 0 AND 25),
        CONSTRAINT "ck_subscription_callback_url" CHECK ("callback_url" ~ '^https?://'),
        CONSTRAINT "ck_subscription_previous_secret" CHECK (("previous_secret_ciphertext" IS NULL) = ("previous_secret_expires_at" IS NULL))
      )`);
    await q.query(
      `CREATE INDEX "ix_subscription_tenant_created" ON "webhooks"."subscription" ("tenant_id", "created_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL`,
    );

    await q.query(`
      CREATE TABLE "webhooks"."delivery" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "subscription_id" uuid NOT NULL REFERENCES "webhooks"."subscription" ("id"),
        "event_id" varchar(200) NOT NULL,
        "event_type" varchar(200) NOT NULL,
        "payload" jsonb NOT NULL,
        "occurred_at" timestamptz NOT NULL,
        "kind" varchar(16) NOT NULL DEFAULT 'event',
        "status" varchar(16) NOT NULL DEFAULT 'pending',
        "attempt_count" integer NOT NULL DEFAULT 0,
        "round_attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz,
        "locked_until" timestamptz,
        "locked_by" varchar(64),
        "last_status_code" integer,
        "last_error" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "completed_at" timestamptz,
        CONSTRAINT "ck_delivery_kind" CHECK ("kind" IN ('event', 'ping')),
        CONSTRAINT "ck_delivery_status" CHECK ("status" IN ('pending', 'succeeded', 'dead', 'cancelled')),
        CONSTRAINT "ck_delivery_due" CHECK (("status" = 'pending') = ("next_attempt_at" IS NOT NULL))
      )`);
    // Fan-out is idempotent by (event, subscription): a redelivered event finds its deliveries there.
    await q.query(`CREATE UNIQUE INDEX "uq_delivery_subscription_event" ON "webhooks"."delivery" ("subscription_id", "event_id")`);
    // The due backlog (the metric's count), in due order.
    await q.query(`CREATE INDEX "ix_delivery_due" ON "webhooks"."delivery" ("next_attempt_at") WHERE "status" = 'pending'`);
    // The claim visits each active subscription and takes its oldest due deliveries, up to its share.
    await q.query(`CREATE INDEX "ix_delivery_subscription_due" ON "webhooks"."delivery" ("subscription_id", "next_attempt_at") WHERE "status" = 'pending'`);
    await q.query(`CREATE INDEX "ix_delivery_tenant_subscription" ON "webhooks"."delivery" ("tenant_id", "subscription_id", "created_at" DESC)`);

    await q.query(`
      CREATE TABLE "webhooks"."delivery_attempt" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "subscription_id" uuid NOT NULL,
        "delivery_id" uuid NOT NULL REFERENCES "webhooks"."delivery" ("id") ON DELETE CASCADE,
        "event_id" varchar(200) NOT NULL,
        "event_type" varchar(200) NOT NULL,
        "attempt_number" integer NOT NULL,
        "outcome" varchar(16) NOT NULL,
        "http_status_code" integer,
        "response_body" text,
        "error_code" varchar(64),
        "error_message" text,
        "latency_ms" integer NOT NULL,
        "delivered_at" timestamptz NOT NULL,
        "deleted_at" timestamptz,
        CONSTRAINT "ck_delivery_attempt_outcome" CHECK ("outcome" IN ('succeeded', 'failed')),
        CONSTRAINT "ck_delivery_attempt_number" CHECK ("attempt_number" > 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX "uq_delivery_attempt_number" ON "webhooks"."delivery_attempt" ("delivery_id", "attempt_number")`);
    await q.query(
      `CREATE INDEX "ix_delivery_attempt_subscription" ON "webhooks"."delivery_attempt" ("tenant_id", "subscription_id", "delivered_at" DESC, "id" DESC)`,
    );
    await q.query(`CREATE INDEX "ix_delivery_attempt_delivered_at" ON "webhooks"."delivery_attempt" ("delivered_at")`);

    await q.query(`
      CREATE TABLE "webhooks"."dead_letter" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "subscription_id" uuid NOT NULL,
        "delivery_id" uuid NOT NULL REFERENCES "webhooks"."delivery" ("id") ON DELETE CASCADE,
        "event_id" varchar(200) NOT NULL,
        "event_type" varchar(200) NOT NULL,
        "reason" varchar(64) NOT NULL,
        "attempts" integer NOT NULL,
        "last_status_code" integer,
        "last_error" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "replayed_at" timestamptz,
        "replayed_by" varchar(255),
        "deleted_at" timestamptz
      )`);
    await q.query(`CREATE INDEX "ix_dead_letter_tenant_created" ON "webhooks"."dead_letter" ("tenant_id", "created_at" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhooks"."dead_letter"`);
    await q.query(`DROP TABLE "webhooks"."delivery_attempt"`);
    await q.query(`DROP TABLE "webhooks"."delivery"`);
    await q.query(`DROP TABLE "webhooks"."subscription"`);
  }
}

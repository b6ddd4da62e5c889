import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { DeliveryKind, DeliveryStatus, WebhookSubscriptionEntity } from '../store';

/** A delivery as the scheduler claimed it. */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  payload: unknown;
  kind: DeliveryKind;
  attemptCount: number;
  roundAttempts: number;
}

/** An event to fan out to subscriptions: from the broker or the ingest route. */
export interface IncomingWebhookEvent {
  tenantId: string;
  eventId: string;
  eventType: string;
  payload: unknown;
  occurredAt: Date;
}

/** What one attempt changes: the delivery's next state and the log row. */
export interface AttemptRecord {
  delivery: ClaimedDelivery;
  /** The delivery's status after this attempt (`pending` with `nextAttemptAt` for a retry). */
  status: Exclude<DeliveryStatus, 'cancelled'>;
  nextAttemptAt: Date | null;
  outcome: 'succeeded' | 'failed';
  httpStatusCode: number | null;
  responseBody: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  latencyMs: number;
  attemptedAt: Date;
}

interface ClaimedRow {
  id: string;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  payload: unknown;
  kind: DeliveryKind;
  attempt_count: number;
  round_attempts: number;
}

const claimedOf = (row: ClaimedRow): ClaimedDelivery => ({
  id: row.id,
  tenantId: row.tenant_id,
  subscriptionId: row.subscription_id,
  eventId: row.event_id,
  eventType: row.event_type,
  payload: row.payload,
  kind: row.kind,
  attemptCount: Number(row.attempt_count),
  roundAttempts: Number(row.round_attempts),
});

/**
 * The dispatcher's queries of `webhooks.delivery` and `webhooks.delivery_attempt`. The due time is
 * the durable schedule: whatever a process holds in memory is only a lease (`locked_until`) that
 * lapses by itself when the process dies.
 */
@Injectable()
export class DeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One pending delivery per subscription id for `event`, due at once. Idempotent by (subscription,
   * event): an event that arrives again (redelivery, the ingest route retried) creates nothing.
   * Resolves the ids of the deliveries this call created.
   */
  async enqueue(
    manager: EntityManager,
    event: IncomingWebhookEvent,
    subscriptionIds: readonly string[],
    dueAt: Date,
    kind: DeliveryKind = 'event',
  ): Promise<string[]> {
    if (subscriptionIds.length === 0) return [];
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO "webhooks"."delivery" ("id", "tenant_id", "subscription_id", "event_id", "event_type", "payload", "occurred_at", "kind", "status", "next_attempt_at")
       SELECT gen_random_uuid(), $1, s, $2, $3, $4::jsonb, $5, $6, 'pending', $7 FROM unnest($8::uuid[]) AS s
       ON CONFLICT ("subscription_id", "event_id") DO NOTHING
       RETURNING "id"`,
      [event.tenantId, event.eventId, event.eventType, JSON.stringify(event.payload), event.occurredAt, kind, dueAt, subscriptionIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Claims up to `limit` due deliveries of active subscriptions, oldest due first, skipping rows
   * another dispatcher holds (`SKIP LOCKED` for the statement, the lease after it) and the
   * subscriptions this process already runs its share for (`busySubscriptions`).
   */
  async claimDue(now: Date, leaseUntil: Date, holder: string, limit: number, busySubscriptions: readonly string[]): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [rows]: [ClaimedRow[], number] = await this.dataSource.query(
      `UPDATE "webhooks"."delivery" AS d SET "locked_until" = $2, "locked_by" = $3, "updated_at" = now()
       WHERE d."id" IN (
         SELECT c."id" FROM "webhooks"."delivery" c
         JOIN "webhooks"."subscription" s ON s."id" = c."subscription_id"
         WHERE c."status" = 'pending' AND c."next_attempt_at" <= $1
           AND (c."locked_until" IS NULL OR c."locked_until" < $1)
           AND s."is_active" AND s."deleted_at" IS NULL
           AND NOT (c."subscription_id" = ANY($4::uuid[]))
         ORDER BY c."next_attempt_at"
         LIMIT $5
         FOR UPDATE OF c SKIP LOCKED)
       RETURNING d."id", d."tenant_id", d."subscription_id", d."event_id", d."event_type", d."payload", d."kind", d."attempt_count", d."round_attempts"`,
      [now, leaseUntil, holder, busySubscriptions, limit],
    );
    return rows.map(claimedOf);
  }

  /** Gives claimed deliveries back untouched (this process has no room for them now). */
  async release(ids: readonly string[], holder: string): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE "webhooks"."delivery" SET "locked_until" = NULL, "locked_by" = NULL WHERE "id" = ANY($1::uuid[]) AND "locked_by" = $2 AND "status" = 'pending'`,
      [ids, holder],
    );
  }

  /** Moves a claimed delivery's due time without counting an attempt (the rate-limit policy held it back). */
  async postpone(id: string, holder: string, dueAt: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE "webhooks"."delivery" SET "next_attempt_at" = $3, "locked_until" = NULL, "locked_by" = NULL, "updated_at" = now()
       WHERE "id" = $1 AND "locked_by" = $2 AND "status" = 'pending'`,
      [id, holder, dueAt],
    );
  }

  /**
   * Writes one attempt: the delivery's next state and its delivery-log row, in one statement (a
   * data-modifying CTE is atomic on its own, so the common case needs no explicit transaction; a
   * dead letter or a deactivation passes the transaction's manager). A delivery cancelled while the
   * attempt ran (its subscription deleted) keeps its status; the attempt is logged all the same.
   * Resolves the attempt's number.
   */
  async recordAttempt(manager: EntityManager, record: AttemptRecord): Promise<number> {
    const rows: Array<{ attempt_number: number }> = await manager.query(
      `WITH "attempted" AS (
         UPDATE "webhooks"."delivery" SET
           "attempt_count" = "attempt_count" + 1,
           "round_attempts" = "round_attempts" + 1,
           "status" = CASE WHEN "status" = 'pending' THEN $2 ELSE "status" END,
           "next_attempt_at" = CASE WHEN "status" = 'pending' AND $2 = 'pending' THEN $3::timestamptz ELSE NULL END,
           "completed_at" = CASE WHEN "status" = 'pending' AND $2 <> 'pending' THEN $4::timestamptz ELSE "completed_at" END,
           "locked_until" = NULL, "locked_by" = NULL,
           "last_status_code" = $5, "last_error" = $6, "updated_at" = now()
         WHERE "id" = $1
         RETURNING "id", "tenant_id", "subscription_id", "event_id", "event_type", "attempt_count")
       INSERT INTO "webhooks"."delivery_attempt"
         ("id", "tenant_id", "subscription_id", "delivery_id", "event_id", "event_type", "attempt_number", "outcome",
          "http_status_code", "response_body", "error_code", "error_message", "latency_ms", "delivered_at")
       SELECT gen_random_uuid(), "tenant_id", "subscription_id", "id", "event_id", "event_type", "attempt_count", $7, $5, $8, $9, $6, $10, $4
       FROM "attempted"
       RETURNING "attempt_number"`,
      [
        record.delivery.id,
        record.status,
        record.nextAttemptAt,
        record.attemptedAt,
        record.httpStatusCode,
        record.errorMessage,
        record.outcome,
        record.responseBody,
        record.errorCode,
        Math.round(record.latencyMs),
      ],
    );
    const [row] = rows;
    if (!row) throw new Error(`delivery ${record.delivery.id} vanished during its attempt`);
    return Number(row.attempt_number);
  }

  /** 410 Gone: the dispatcher turns the subscription off (a person turns it on again with PATCH). */
  async deactivateGone(manager: EntityManager, subscriptionId: string): Promise<void> {
    await manager.query(
      `UPDATE "webhooks"."subscription" SET "is_active" = false, "deactivated_reason" = 'gone', "revision" = "revision" + 1,
         "updated_by" = 'webhook-dispatcher', "updated_at" = now()
       WHERE "id" = $1 AND "is_active"`,
      [subscriptionId],
    );
  }

  /** The subscriptions of claimed deliveries, by id (deleted ones included: a claim raced a delete). */
  async subscriptions(ids: readonly string[]): Promise<Map<string, WebhookSubscriptionEntity>> {
    if (ids.length === 0) return new Map();
    const rows = await this.dataSource.getRepository(WebhookSubscriptionEntity).find({ where: { id: In([...new Set(ids)]) } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Pending deliveries whose due time has passed, for the backlog gauge. */
  async dueCount(now: Date): Promise<number> {
    const [row]: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM "webhooks"."delivery" WHERE "status" = 'pending' AND "next_attempt_at" <= $1`,
      [now],
    );
    return Number(row?.n ?? 0);
  }
}

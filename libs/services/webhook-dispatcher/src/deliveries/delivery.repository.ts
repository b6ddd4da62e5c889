import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { Tracing } from '@lp/platform/observability';
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
  /** The trace the delivery belongs to: each attempt is a span of it and sends it on. */
  traceparent: string | null;
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
  traceparent: string | null;
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
  traceparent: row.traceparent,
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
      `INSERT INTO "webhooks"."delivery" ("id", "tenant_id", "subscription_id", "event_id", "event_type", "payload", "occurred_at", "kind", "status", "next_attempt_at", "traceparent")
       SELECT gen_random_uuid(), $1, s, $2, $3, $4::jsonb, $5, $6, 'pending', $7, $9 FROM unnest($8::uuid[]) AS s
       ON CONFLICT ("subscription_id", "event_id") DO NOTHING
       RETURNING "id"`,
      // The active span (the event's consumer, or the ingest or ping request) is the attempts' parent.
      [event.tenantId, event.eventId, event.eventType, JSON.stringify(event.payload), event.occurredAt, kind, dueAt, subscriptionIds, Tracing.traceparent()],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Claims due deliveries of active subscriptions, oldest due first within each subscription, at
   * most `limit` in all and at most `share` minus what this process already runs (`running`) for one
   * subscription, skipping rows another dispatcher holds (`SKIP LOCKED` for the statement, the lease
   * after it). Subscriptions are visited in a random order each claim, so when the overall limit
   * binds, no subscription is always last. Each visit is one probe of `ix_delivery_subscription_due`
   * that stops at the subscription's free share: a claim costs the active subscriptions it visits,
   * not the backlog, and never claims what it would have to give back.
   */
  async claimDue(now: Date, leaseUntil: Date, holder: string, limit: number, share: number, running: ReadonlyMap<string, number>): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [rows]: [ClaimedRow[], number] = await this.dataSource.query(
      `UPDATE "webhooks"."delivery" AS d SET "locked_until" = $2, "locked_by" = $3, "updated_at" = now()
       WHERE d."id" IN (
         SELECT c."id"
         FROM (SELECT s."id", $6::int - coalesce(r."n", 0) AS "free"
               FROM "webhooks"."subscription" s
               LEFT JOIN unnest($4::uuid[], $5::int[]) AS r("id", "n") ON r."id" = s."id"
               WHERE s."is_active" AND s."deleted_at" IS NULL AND coalesce(r."n", 0) < $6::int
               ORDER BY random()) AS s
         CROSS JOIN LATERAL (
           SELECT x."id" FROM "webhooks"."delivery" x
           WHERE x."subscription_id" = s."id" AND x."status" = 'pending' AND x."next_attempt_at" <= $1
             AND (x."locked_until" IS NULL OR x."locked_until" < $1)
           ORDER BY x."next_attempt_at"
           LIMIT s."free"
           FOR UPDATE OF x SKIP LOCKED) AS c
         LIMIT $7)
       RETURNING d."id", d."tenant_id", d."subscription_id", d."event_id", d."event_type", d."payload", d."kind", d."attempt_count", d."round_attempts", d."traceparent"`,
      [now, leaseUntil, holder, [...running.keys()], [...running.values()], share, limit],
    );
    return rows.map(claimedOf);
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
   * Writes attempts: each delivery's next state and its delivery-log row, all in one statement (a
   * data-modifying CTE is atomic on its own; a dead letter or a deactivation passes its
   * transaction's manager). A delivery cancelled while its attempt ran (its subscription deleted)
   * keeps its status; the attempt is logged all the same. Resolves each delivery's attempt number.
   */
  async recordAttempts(manager: EntityManager, records: readonly AttemptRecord[]): Promise<Map<string, number>> {
    if (records.length === 0) return new Map();
    const input = records.map((r) => ({
      id: r.delivery.id,
      status: r.status,
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
      attempted_at: r.attemptedAt.toISOString(),
      http_status_code: r.httpStatusCode,
      error_message: r.errorMessage,
      outcome: r.outcome,
      response_body: r.responseBody,
      error_code: r.errorCode,
      latency_ms: Math.round(r.latencyMs),
    }));
    const rows: Array<{ delivery_id: string; attempt_number: number }> = await manager.query(
      `WITH "input" AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
           "id" uuid, "status" text, "next_attempt_at" timestamptz, "attempted_at" timestamptz, "http_status_code" integer,
           "error_message" text, "outcome" text, "response_body" text, "error_code" text, "latency_ms" integer)
       ), "attempted" AS (
         UPDATE "webhooks"."delivery" AS d SET
           "attempt_count" = d."attempt_count" + 1,
           "round_attempts" = d."round_attempts" + 1,
           "status" = CASE WHEN d."status" = 'pending' THEN i."status" ELSE d."status" END,
           "next_attempt_at" = CASE WHEN d."status" = 'pending' AND i."status" = 'pending' THEN i."next_attempt_at" ELSE NULL END,
           "completed_at" = CASE WHEN d."status" = 'pending' AND i."status" <> 'pending' THEN i."attempted_at" ELSE d."completed_at" END,
           "locked_until" = NULL, "locked_by" = NULL,
           "last_status_code" = i."http_status_code", "last_error" = i."error_message", "updated_at" = now()
         FROM "input" i WHERE d."id" = i."id"
         RETURNING d."id", d."tenant_id", d."subscription_id", d."event_id", d."event_type", d."attempt_count")
       INSERT INTO "webhooks"."delivery_attempt"
         ("id", "tenant_id", "subscription_id", "delivery_id", "event_id", "event_type", "attempt_number", "outcome",
          "http_status_code", "response_body", "error_code", "error_message", "latency_ms", "delivered_at")
       SELECT gen_random_uuid(), a."tenant_id", a."subscription_id", a."id", a."event_id", a."event_type", a."attempt_count", i."outcome",
              i."http_status_code", i."response_body", i."error_code", i."error_message", i."latency_ms", i."attempted_at"
       FROM "attempted" a JOIN "input" i ON i."id" = a."id"
       RETURNING "delivery_id", "attempt_number"`,
      [JSON.stringify(input)],
    );
    return new Map(rows.map((row) => [row.delivery_id, Number(row.attempt_number)]));
  }

  /** `recordAttempts` for one attempt. */
  async recordAttempt(manager: EntityManager, record: AttemptRecord): Promise<number> {
    const number = (await this.recordAttempts(manager, [record])).get(record.delivery.id);
    if (number === undefined) throw new Error(`delivery ${record.delivery.id} vanished during its attempt`);
    return number;
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
  /** Pending deliveries due at `now`, and how long the oldest of them has been due (0 when none is). */
  async dueBacklog(now: Date): Promise<{ count: number; oldestDueSeconds: number }> {
    const [row]: Array<{ n: number; oldest: number | null }> = await this.dataSource.query(
      `SELECT count(*)::int AS n, extract(epoch FROM ($1::timestamptz - min("next_attempt_at")))::float8 AS oldest
         FROM "webhooks"."delivery" WHERE "status" = 'pending' AND "next_attempt_at" <= $1`,
      [now],
    );
    return { count: Number(row?.n ?? 0), oldestDueSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
  }
}

import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** A delivery whose retries ran out (or whose receiver answered 410 Gone). */
export interface DeadLetterEntry {
  tenantId: string;
  subscriptionId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  reason: 'RetriesExhausted' | 'SubscriptionGone';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
}

/**
 * The spec's dead letter queue policy (§2): what happens to a delivery whose retries are used up.
 * Written in the transaction that records the last attempt. The delivery row itself stays `dead`
 * and its attempts stay in the delivery log whatever the store does.
 */
export abstract class DeadLetterStore {
  /** Whether stored entries can be listed and replayed. */
  abstract readonly keeps: boolean;
  abstract store(manager: EntityManager, entry: DeadLetterEntry): Promise<void>;
}

/** The spec's default: discards the entry (`WEBHOOK_DEAD_LETTERS=discard`). */
export class NullDeadLetterStore extends DeadLetterStore {
  readonly keeps = false;
  store(): Promise<void> {
    return Promise.resolve();
  }
}

/** This platform's default (`WEBHOOK_DEAD_LETTERS=store`): `webhooks.dead_letter`, listed and replayable. */
export class PostgresDeadLetterStore extends DeadLetterStore {
  readonly keeps = true;

  async store(manager: EntityManager, entry: DeadLetterEntry): Promise<void> {
    await manager.query(
      `INSERT INTO "webhooks"."dead_letter"
         ("id", "tenant_id", "subscription_id", "delivery_id", "event_id", "event_type", "reason", "attempts", "last_status_code", "last_error")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        randomUUID(),
        entry.tenantId,
        entry.subscriptionId,
        entry.deliveryId,
        entry.eventId,
        entry.eventType,
        entry.reason,
        entry.attempts,
        entry.lastStatusCode,
        entry.lastError,
      ],
    );
  }
}

/** The store `WEBHOOK_DEAD_LETTERS` names: `store` keeps them (this platform's default), `discard` is the spec's. */
export function deadLetterStoreFor(policy: 'store' | 'discard'): DeadLetterStore {
  return policy === 'discard' ? new NullDeadLetterStore() : new PostgresDeadLetterStore();
}

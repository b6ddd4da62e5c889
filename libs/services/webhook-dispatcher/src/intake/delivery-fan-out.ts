import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { matchesAnyWebhookPattern } from '@lp/contracts';
import { DeliveryRepository, IncomingWebhookEvent } from '../deliveries/delivery.repository';
import { WebhookClock } from '../deliveries/webhook-clock';

export interface FanOutResult {
  /** Active subscriptions of the event's tenant with a pattern matching its type. */
  matched: number;
  /** Deliveries this call created (fewer than `matched` when the event came before). */
  created: number;
}

/**
 * Turns one event into one pending delivery per matching active subscription of its tenant (spec
 * §6.1), due at once, in the caller's transaction. Matching follows §2 (`ticket.*`, exact types,
 * `*.created`) in code over the tenant's subscriptions: a tenant has at most a few hundred, and the
 * patterns are not expressible as one index lookup.
 */
@Injectable()
export class DeliveryFanOut {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly clock: WebhookClock,
  ) {}

  async fanOut(manager: EntityManager, event: IncomingWebhookEvent): Promise<FanOutResult> {
    const subscriptions: Array<{ id: string; event_types: string[] }> = await manager.query(
      `SELECT "id", "event_types" FROM "webhooks"."subscription" WHERE "tenant_id" = $1 AND "deleted_at" IS NULL AND "is_active"`,
      [event.tenantId],
    );
    const matching = subscriptions.filter((s) => matchesAnyWebhookPattern(s.event_types, event.eventType)).map((s) => s.id);
    const created = await this.deliveries.enqueue(manager, event, matching, this.clock.now());
    return { matched: matching.length, created: created.length };
  }
}

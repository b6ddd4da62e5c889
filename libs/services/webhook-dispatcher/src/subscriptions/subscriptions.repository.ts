import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { WebhookSubscriptionEntity } from '../store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SubscriptionFilter {
  isActive?: boolean;
  /** A concrete event type: subscriptions one of whose patterns matches it. */
  eventType?: string;
}

/**
 * The queries of `webhooks.subscription`. Every one names the tenant, and none sees a soft-deleted
 * row: another tenant's subscription, a deleted one and an id that is not a UUID are all simply not there.
 */
@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectRepository(WebhookSubscriptionEntity) private readonly subscriptions: Repository<WebhookSubscriptionEntity>) {}

  /** The live subscription `id` of `tenantId`, or null; `lock` takes its row lock (inside a transaction) for a change. */
  findInTenant(tenantId: string, id: string, options: { manager?: EntityManager; lock?: boolean } = {}): Promise<WebhookSubscriptionEntity | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    const qb = (options.manager?.getRepository(WebhookSubscriptionEntity) ?? this.subscriptions)
      .createQueryBuilder('s')
      .where('"s"."tenant_id" = :tenantId', { tenantId })
      .andWhere('"s"."id" = :id', { id })
      .andWhere('"s"."deleted_at" IS NULL');
    if (options.lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /**
   * One page of the tenant's live subscriptions, newest first (id breaks ties). The event type
   * filter is `matchesWebhookPattern` in SQL: an exact pattern, `{module}.*` (a prefix) or `*.{name}` (a suffix).
   */
  page(tenantId: string, filter: SubscriptionFilter, window: { skip: number; take: number }): Promise<[WebhookSubscriptionEntity[], number]> {
    const qb = this.subscriptions.createQueryBuilder('s').where('"s"."tenant_id" = :tenantId', { tenantId }).andWhere('"s"."deleted_at" IS NULL');
    if (filter.isActive !== undefined) qb.andWhere('"s"."is_active" = :isActive', { isActive: filter.isActive });
    if (filter.eventType !== undefined) {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM jsonb_array_elements_text("s"."event_types") AS p(pattern)
                  WHERE p.pattern = :eventType
                     OR (left(p.pattern, 2) = '*.' AND right(:eventType, length(p.pattern) - 1) = substr(p.pattern, 2))
                     OR (right(p.pattern, 2) = '.*' AND left(:eventType, length(p.pattern) - 1) = left(p.pattern, -1)))`,
        { eventType: filter.eventType },
      );
    }
    return qb.orderBy('"s"."created_at"', 'DESC').addOrderBy('"s"."id"', 'DESC').skip(window.skip).take(window.take).getManyAndCount();
  }

  /**
   * How many live subscriptions the tenant holds, counted after taking the tenant's create lock:
   * concurrent creates of one tenant serialize on it until their transactions end, so the limit holds.
   */
  async countForCreate(manager: EntityManager, tenantId: string): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks.subscription.create:' || $1, 0))`, [tenantId]);
    const [row]: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM "webhooks"."subscription" WHERE "tenant_id" = $1 AND "deleted_at" IS NULL`,
      [tenantId],
    );
    return Number(row?.n ?? 0);
  }
}

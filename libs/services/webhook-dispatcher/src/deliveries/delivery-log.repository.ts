import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '@lp/contracts';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { DeadLetterEntity, DeliveryAttemptEntity, WebhookDeliveryEntity } from '../store';
import { DeadLetterResponse, DeliveryAttemptResponse, DeliveryResponse, DeliveryViewStatus, MAX_NESTED_ATTEMPTS } from './dto/delivery.responses';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export const attemptOf = (row: DeliveryAttemptEntity): DeliveryAttemptResponse => ({
  id: row.id,
  deliveryId: row.deliveryId,
  subscriptionId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  attemptNumber: row.attemptNumber,
  outcome: row.outcome,
  httpStatusCode: row.httpStatusCode,
  responseBody: row.responseBody,
  errorCode: row.errorCode,
  errorMessage: row.errorMessage,
  latencyMs: row.latencyMs,
  deliveredAt: row.deliveredAt.toISOString(),
});

/** The stored status as people name it (`DELIVERY_VIEW_STATUSES`): a pending delivery already attempted is retrying. */
export function viewStatusOf(row: Pick<WebhookDeliveryEntity, 'status' | 'attemptCount'>): DeliveryViewStatus {
  if (row.status === 'pending') return row.attemptCount > 0 ? 'retrying' : 'pending';
  return row.status === 'succeeded' ? 'delivered' : row.status;
}

/** The stored condition of a view status (the filter of the delivery list). */
const STATUS_CONDITIONS: Record<DeliveryViewStatus, string> = {
  pending: `d.status = 'pending' AND d.attemptCount = 0`,
  retrying: `d.status = 'pending' AND d.attemptCount > 0`,
  delivered: `d.status = 'succeeded'`,
  dead: `d.status = 'dead'`,
  cancelled: `d.status = 'cancelled'`,
};

export const deliveryOf = (row: WebhookDeliveryEntity, attempts: readonly DeliveryAttemptEntity[]): DeliveryResponse => ({
  id: row.id,
  subscriptionId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  kind: row.kind,
  status: viewStatusOf(row),
  attempts: row.attemptCount,
  nextAttemptAt: iso(row.nextAttemptAt),
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  occurredAt: row.occurredAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
  completedAt: iso(row.completedAt),
  attemptLog: attempts.map(attemptOf),
});

export const deadLetterOf = (row: DeadLetterEntity): DeadLetterResponse => ({
  id: row.id,
  deliveryId: row.deliveryId,
  subscriptionId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  reason: row.reason,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  replayedAt: iso(row.replayedAt),
  replayedBy: row.replayedBy,
});

/**
 * Reads of the delivery log, deliveries and dead letters. Every query names the caller's tenant; an
 * id of another tenant, a malformed id and an unknown id are all simply not there.
 */
@Injectable()
export class DeliveryLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  async attempts(tenantId: string, subscriptionId: string, filter: { deliveryId?: string }, page: PageQuery): Promise<Page<DeliveryAttemptResponse>> {
    const qb = this.dataSource
      .getRepository(DeliveryAttemptEntity)
      .createQueryBuilder('a')
      .where('a.tenantId = :tenantId AND a.subscriptionId = :subscriptionId AND a.deletedAt IS NULL', { tenantId, subscriptionId });
    if (filter.deliveryId) qb.andWhere('a.deliveryId = :deliveryId', { deliveryId: filter.deliveryId });
    const { skip, take } = pageWindow(page);
    const [rows, total] = await qb
      .orderBy('a.deliveredAt', 'DESC')
      .addOrderBy('a.attemptNumber', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .skip(skip)
      .take(take)
      .getManyAndCount();
    return pageOf(rows.map(attemptOf), total, page);
  }

  async delivery(tenantId: string, id: string): Promise<DeliveryResponse | null> {
    if (!UUID.test(id)) return null;
    const row = await this.dataSource.getRepository(WebhookDeliveryEntity).findOne({ where: { tenantId, id } });
    return row && deliveryOf(row, (await this.nestedAttempts(tenantId, [row.id])).get(row.id) ?? []);
  }

  /**
   * The tenant's deliveries, newest first, each with its latest attempts nested: two queries (the
   * page, then the attempts of its deliveries), whatever the page size.
   */
  async deliveries(
    tenantId: string,
    filter: { subscriptionId?: string; status?: DeliveryViewStatus; eventType?: string },
    page: PageQuery,
  ): Promise<Page<DeliveryResponse>> {
    const qb = this.dataSource.getRepository(WebhookDeliveryEntity).createQueryBuilder('d').where('d.tenantId = :tenantId', { tenantId });
    if (filter.subscriptionId) qb.andWhere('d.subscriptionId = :subscriptionId', { subscriptionId: filter.subscriptionId });
    if (filter.status) qb.andWhere(STATUS_CONDITIONS[filter.status]);
    if (filter.eventType !== undefined) qb.andWhere('d.eventType = :eventType', { eventType: filter.eventType });
    const { skip, take } = pageWindow(page);
    const [rows, total] = await qb.orderBy('d.createdAt', 'DESC').addOrderBy('d.id', 'DESC').skip(skip).take(take).getManyAndCount();
    const attempts = await this.nestedAttempts(
      tenantId,
      rows.map((row) => row.id),
    );
    return pageOf(
      rows.map((row) => deliveryOf(row, attempts.get(row.id) ?? [])),
      total,
      page,
    );
  }

  /** The latest `MAX_NESTED_ATTEMPTS` attempts of each delivery, oldest first (by the (delivery, attempt number) index). */
  private async nestedAttempts(tenantId: string, deliveryIds: string[]): Promise<Map<string, DeliveryAttemptEntity[]>> {
    const byDelivery = new Map<string, DeliveryAttemptEntity[]>();
    if (deliveryIds.length === 0) return byDelivery;
    const rows = await this.dataSource
      .getRepository(DeliveryAttemptEntity)
      .createQueryBuilder('a')
      .where('a.tenantId = :tenantId AND a.deliveryId IN (:...deliveryIds) AND a.deletedAt IS NULL', { tenantId, deliveryIds })
      .andWhere(
        `(SELECT count(*) FROM "webhooks"."delivery_attempt" b
           WHERE b."delivery_id" = a."delivery_id" AND b."attempt_number" > a."attempt_number" AND b."deleted_at" IS NULL) < :cap`,
        { cap: MAX_NESTED_ATTEMPTS },
      )
      .orderBy('a.deliveryId')
      .addOrderBy('a.attemptNumber', 'ASC')
      .getMany();
    for (const row of rows) byDelivery.set(row.deliveryId, [...(byDelivery.get(row.deliveryId) ?? []), row]);
    return byDelivery;
  }

  async deadLetters(tenantId: string, filter: { subscriptionId?: string; replayed?: boolean }, page: PageQuery): Promise<Page<DeadLetterResponse>> {
    const qb = this.dataSource.getRepository(DeadLetterEntity).createQueryBuilder('d').where('d.tenantId = :tenantId AND d.deletedAt IS NULL', { tenantId });
    if (filter.subscriptionId) qb.andWhere('d.subscriptionId = :subscriptionId', { subscriptionId: filter.subscriptionId });
    if (filter.replayed !== undefined) qb.andWhere(filter.replayed ? 'd.replayedAt IS NOT NULL' : 'd.replayedAt IS NULL');
    const { skip, take } = pageWindow(page);
    const [rows, total] = await qb.orderBy('d.createdAt', 'DESC').addOrderBy('d.id', 'DESC').skip(skip).take(take).getManyAndCount();
    return pageOf(rows.map(deadLetterOf), total, page);
  }

  deadLetter(tenantId: string, id: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<DeadLetterEntity | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    const qb = manager
      .getRepository(DeadLetterEntity)
      .createQueryBuilder('d')
      .where('d.tenantId = :tenantId AND d.id = :id AND d.deletedAt IS NULL', { tenantId, id });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }
}

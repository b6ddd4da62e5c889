import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '@lp/contracts';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { DeadLetterEntity, DeliveryAttemptEntity, WebhookDeliveryEntity } from '../store';
import { DeadLetterResponse, DeliveryAttemptResponse, DeliveryResponse } from './dto/delivery.responses';

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

export const deliveryOf = (row: WebhookDeliveryEntity): DeliveryResponse => ({
  id: row.id,
  subscriptionId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  kind: row.kind,
  status: row.status,
  attempts: row.attemptCount,
  nextAttemptAt: iso(row.nextAttemptAt),
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  occurredAt: row.occurredAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
  completedAt: iso(row.completedAt),
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

  delivery(tenantId: string, id: string): Promise<WebhookDeliveryEntity | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.dataSource.getRepository(WebhookDeliveryEntity).findOne({ where: { tenantId, id } });
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

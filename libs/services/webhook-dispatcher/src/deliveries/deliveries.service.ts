import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError, TrustedCaller } from '@lp/contracts';
import { Tracing } from '@lp/platform/observability';
import { DeadLetterStore } from '../policies/dead-letter-store';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { DeliveryAttemptRunner } from './delivery-attempt.runner';
import { DeliveryLogRepository, deadLetterOf } from './delivery-log.repository';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryScheduler } from './delivery-scheduler';
import { DeadLetterAlreadyReplayedError, DeadLettersNotKeptError, SubscriptionInactiveError } from './deliveries.errors';
import { DeadLetterResponse, PingResponse } from './dto/delivery.responses';
import { WebhookClock } from './webhook-clock';

/** The event type of a ping: no module's, so no subscription pattern ever matches it. */
export const PING_EVENT_TYPE = 'webhook.ping';

/** Ping and replay: the two ways a person sends a delivery by hand. */
@Injectable()
export class DeliveriesService {
  private readonly logger = new Logger(DeliveriesService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly log: DeliveryLogRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly runner: DeliveryAttemptRunner,
    private readonly scheduler: DeliveryScheduler,
    private readonly deadLetterStore: DeadLetterStore,
    private readonly clock: WebhookClock,
  ) {}

  /**
   * Sends a `webhook.ping` delivery to the subscription now and answers how it went: one attempt,
   * signed like any other, logged in the delivery log, never retried or dead-lettered. Works on an
   * inactive subscription too (to test an endpoint before turning it on).
   */
  async ping(caller: TrustedCaller, subscriptionId: string): Promise<PingResponse> {
    const subscription = await this.subscriptions.findInTenant(caller.tenantId, subscriptionId);
    if (!subscription) throw new NotFoundError('Webhook subscription');
    const now = this.clock.now();
    const eventId = `ping-${randomUUID()}`;
    const payload = { subscriptionId, message: 'ping' };
    const holder = this.scheduler.holder;
    // Written claimed (a lease, like the scheduler's), so no other dispatcher attempts it meanwhile;
    // if this process dies mid-ping, the lease lapses and the scheduler makes the one attempt instead.
    const id = await this.dataSource.transaction(async (manager) => {
      const event = { tenantId: caller.tenantId, eventId, eventType: PING_EVENT_TYPE, payload, occurredAt: now };
      const [created] = await this.deliveries.enqueue(manager, event, [subscriptionId], now, 'ping');
      if (!created) throw new Error('ping delivery was not created');
      await manager.query(`UPDATE "webhooks"."delivery" SET "locked_until" = $2, "locked_by" = $3 WHERE "id" = $1`, [
        created,
        new Date(now.getTime() + 60_000),
        holder,
      ]);
      return created;
    });
    const result = await this.runner.attempt(
      {
        id,
        tenantId: caller.tenantId,
        subscriptionId,
        eventId,
        eventType: PING_EVENT_TYPE,
        payload,
        kind: 'ping',
        attemptCount: 0,
        roundAttempts: 0,
        traceparent: Tracing.traceparent(),
      },
      subscription,
      holder,
    );
    const outcome = result.outcome;
    this.logger.log(`ping of subscription ${subscriptionId} by ${caller.subject}: ${result.verdict}`);
    return {
      deliveryId: id,
      eventType: PING_EVENT_TYPE,
      succeeded: result.verdict === 'succeeded',
      httpStatusCode: outcome?.kind === 'response' ? outcome.status : null,
      errorCode: outcome?.kind === 'error' ? outcome.code : null,
      errorMessage: outcome?.kind === 'error' ? outcome.message : null,
      latencyMs: Math.round(outcome?.latencyMs ?? 0),
    };
  }

  /**
   * Puts a dead letter's delivery back to pending, due now, with a fresh retry budget and the same
   * delivery id (receivers that saw an earlier attempt deduplicate on it). Once per dead letter: if
   * the delivery dies again, a new dead letter records it.
   */
  async replay(caller: TrustedCaller, deadLetterId: string): Promise<DeadLetterResponse> {
    if (!this.deadLetterStore.keeps) throw new DeadLettersNotKeptError();
    const replayed = await this.dataSource.transaction(async (manager) => {
      const entry = await this.log.deadLetter(caller.tenantId, deadLetterId, manager, true);
      if (!entry) throw new NotFoundError('Dead letter');
      if (entry.replayedAt) throw new DeadLetterAlreadyReplayedError();
      const subscription = await this.subscriptions.findInTenant(caller.tenantId, entry.subscriptionId, { manager });
      if (!subscription) throw new NotFoundError('Webhook subscription');
      if (!subscription.isActive) throw new SubscriptionInactiveError();
      await manager.query(
        `UPDATE "webhooks"."delivery" SET "status" = 'pending', "round_attempts" = 0, "next_attempt_at" = $2, "completed_at" = NULL,
           "locked_until" = NULL, "locked_by" = NULL, "updated_at" = now()
         WHERE "id" = $1 AND "status" = 'dead'`,
        [entry.deliveryId, this.clock.now()],
      );
      await manager.query(`UPDATE "webhooks"."dead_letter" SET "replayed_at" = $2, "replayed_by" = $3 WHERE "id" = $1`, [
        entry.id,
        this.clock.now(),
        caller.subject,
      ]);
      return (await this.log.deadLetter(caller.tenantId, deadLetterId, manager)) ?? entry;
    });
    this.logger.log(`audit: dead letter ${replayed.id} (delivery ${replayed.deliveryId}) replayed by ${caller.subject} in tenant ${caller.tenantId}`);
    this.scheduler.nudge();
    return deadLetterOf(replayed);
  }
}

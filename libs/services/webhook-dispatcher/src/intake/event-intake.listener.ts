import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventEnvelope, FleetService, isWebhookEventType, WEBHOOK_INTAKE_TOPICS } from '@lp/contracts';
import { EventBus, IdempotentConsumer } from '@lp/platform/messaging';
import { DeliveryScheduler } from '../deliveries/delivery-scheduler';
import { DeliveryFanOut } from './delivery-fan-out';

/** Names the processed-event records of the fan-out (another handler of the same events needs its own). */
export const WEBHOOK_FAN_OUT_CONSUMER = 'webhook-dispatcher:deliveries';

/**
 * The business events webhooks carry, from `integration.events`: one durable queue
 * (`webhook-dispatcher.events`, with its dead-letter queue) bound to every event of each registered
 * module (`ticket.#`, …, `case.#`, `workflow.#`), shared by the dispatcher's replicas. Each event
 * is fanned out once (processed-event record and deliveries in one transaction); a failure rolls
 * both back and the broker redelivers. Events without a tenant reach no subscription (subscriptions
 * belong to tenants).
 */
@Injectable()
export class EventIntakeListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(EventIntakeListener.name);
  private readonly consumer: IdempotentConsumer;

  constructor(
    private readonly bus: EventBus,
    private readonly fanOut: DeliveryFanOut,
    private readonly scheduler: DeliveryScheduler,
    dataSource: DataSource,
  ) {
    this.consumer = new IdempotentConsumer(dataSource, WEBHOOK_FAN_OUT_CONSUMER);
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const pattern of WEBHOOK_INTAKE_TOPICS) {
      await this.bus.subscribe({ pattern, mode: 'service', consumer: FleetService.webhookDispatcher }, async (envelope) => {
        await this.receive(envelope);
      });
    }
  }

  /** Resolves the number of deliveries created (0 for a redelivered event or one nobody subscribed to). */
  async receive(envelope: EventEnvelope): Promise<number> {
    if (envelope.tenantId === null || !isWebhookEventType(envelope.eventType)) {
      this.logger.debug(`event ${envelope.eventId} (${envelope.eventType}) has no tenant or is not a webhook event type; not delivered`);
      return 0;
    }
    const tenantId = envelope.tenantId;
    let created = 0;
    await this.consumer.process(envelope, async (manager) => {
      const result = await this.fanOut.fanOut(manager, {
        tenantId,
        eventId: envelope.eventId,
        eventType: envelope.eventType,
        payload: envelope.payload ?? {},
        occurredAt: new Date(envelope.occurredAt),
      });
      created = result.created;
    });
    if (created > 0) {
      this.logger.debug(`event ${envelope.eventId} (${envelope.eventType}) fanned out to ${created} subscription(s) of tenant ${tenantId}`);
      this.scheduler.nudge();
    }
    return created;
  }
}

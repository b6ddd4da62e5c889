import { LoggerService } from '@nestjs/common';
import { EventEnvelope } from '@lp/contracts';
import { CorrelationContext, SpanKind, Tracing } from '@lp/platform/observability';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventHandler, EventRetryPolicy, SubscriptionMode } from './event-bus';
import { parseEventEnvelope } from './event-envelope';
import { SubscriptionTable } from './subscription-table';

/** One message as a transport delivered it, with the transport's way to settle it. */
export interface EventDelivery {
  content: string | Buffer;
  routingKey: string;
  /** The message's headers: `traceparent` names the span that published it (the outbox write's). */
  headers?: Record<string, unknown>;
  /** Earlier deliveries of this message that were not acknowledged (consumer failure or death). */
  deliveryCount: number;
  ack(): void;
  /** `requeue: false` dead-letters (service queue) or drops (instance queue). */
  reject(requeue: boolean): void;
}

export function retryDelayMs(policy: EventRetryPolicy, failedAttempts: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (failedAttempts - 1));
}

/**
 * What happens to a delivered event, the same for both transports so their semantics cannot drift:
 * the handlers run inside the event's correlation id; success acks. A service-mode failure is
 * requeued after a growing delay (any instance may take it next) until the broker's delivery count
 * reaches `maxAttempts`, then dead-lettered; counting on the broker bounds even an event that kills
 * its consumer. An instance queue is private to this instance, so an instance-mode failure is
 * retried here and then dropped with an error log. A body that is not an envelope is rejected at once.
 * Handlers must be registered before the consumer starts (see the buses), or a backlog could
 * reach an empty table.
 */
export class EventDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly consumer: string,
    private readonly mode: SubscriptionMode,
    private readonly table: SubscriptionTable,
    private readonly retry: EventRetryPolicy,
    private readonly logger: LoggerService,
  ) {}

  dispatch(delivery: EventDelivery): void {
    const work = this.process(delivery).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Waits (at most `graceMs`) for handlers in progress; retry waits are cut short and their events left to the broker. */
  async drain(graceMs: number): Promise<void> {
    this.stopping.abort();
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }

  private async process(delivery: EventDelivery): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = parseEventEnvelope(delivery.content);
    } catch (error) {
      this.logger.error({ err: error, consumer: this.consumer, routingKey: delivery.routingKey }, 'Unreadable event rejected');
      delivery.reject(false);
      return;
    }
    const handlers = this.table.handlersFor(delivery.routingKey);
    if (this.mode === 'instance') {
      // An instance queue is bound only for its current handlers: an event nobody wants loses nothing.
      if (handlers.length > 0) await this.runWithLocalRetries(envelope, handlers, delivery.headers);
      return delivery.ack();
    }
    try {
      // A service queue is durable: its backlog may arrive before every handler of the consumer
      // subscribed (or for a pattern no longer subscribed). Treated as a failure, the event waits
      // for the handler or ends in the dead-letter queue; acknowledged, it would be lost.
      if (handlers.length === 0) throw new Error(`No handler of ${this.consumer} subscribes to ${delivery.routingKey}`);
      await this.run(envelope, handlers, delivery.headers);
      delivery.ack();
    } catch (error) {
      const attempt = delivery.deliveryCount + 1;
      if (attempt >= this.retry.maxAttempts) {
        this.logger.error({ err: error, ...this.describe(envelope), attempt }, 'Event handling failed; dead-lettered');
        delivery.reject(false);
        return;
      }
      this.logger.warn({ err: error, ...this.describe(envelope), attempt }, 'Event handling failed; will retry');
      if (await this.pause(retryDelayMs(this.retry, attempt))) delivery.reject(true);
    }
  }

  private async runWithLocalRetries(envelope: EventEnvelope, handlers: EventHandler[], headers: EventDelivery['headers']): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(envelope, handlers, headers);
      } catch (error) {
        if (attempt >= this.retry.maxAttempts) {
          this.logger.error({ err: error, ...this.describe(envelope), attempt }, 'Event handling failed; dropped');
          return;
        }
        if (!(await this.pause(retryDelayMs(this.retry, attempt)))) return;
      }
    }
  }

  /**
   * One attempt: the handlers in the event's correlation id and, while tracing records, in a
   * consumer span continuing the publisher's trace (`traceparent` header), one per attempt.
   */
  private run(envelope: EventEnvelope, handlers: EventHandler[], headers: EventDelivery['headers']): Promise<void> {
    const handleAll = async () => {
      for (const handler of handlers) await handler(envelope);
    };
    if (!Tracing.enabled) return CorrelationContext.run(envelope.correlationId, handleAll);
    const attributes = {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'process',
      'messaging.destination.name': envelope.eventType,
      'messaging.consumer.group.name': this.consumer,
      'messaging.message.id': envelope.eventId,
    };
    return Tracing.run(`process ${envelope.eventType}`, { kind: SpanKind.CONSUMER, parent: headers ?? {}, attributes }, () =>
      CorrelationContext.run(envelope.correlationId, handleAll),
    );
  }

  /** False when the bus is closing: the delivery is left unsettled for the broker to hand out again. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.stopping.signal });
      return true;
    } catch {
      return false;
    }
  }

  private describe(envelope: EventEnvelope) {
    return { consumer: this.consumer, eventId: envelope.eventId, eventType: envelope.eventType, correlationId: envelope.correlationId };
  }
}

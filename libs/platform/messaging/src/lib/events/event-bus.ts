import { OnApplicationShutdown } from '@nestjs/common';
import { EventEnvelope, EventFamily, receiveEvent, ReceivedEventOf } from '@lp/contracts';

/**
 * - `service`: work that must happen once per consuming service (webhook delivery, workflow
 *   reactions). One durable queue per consumer (`{consumer}.events`), shared by the service's
 *   instances (competing consumers); a failed event is retried, then dead-lettered.
 * - `instance`: every running instance gets its own copy (cache invalidation). An exclusive queue
 *   that lives as long as the instance; a failed event is retried a few times, then dropped.
 */
export type SubscriptionMode = 'service' | 'instance';

export interface SubscribeOptions {
  /** Topic pattern over event types, e.g. `authorization.#` or `ticket.created`. */
  pattern: string;
  mode: SubscriptionMode;
  /** The consuming service's name: names its queue and groups its instances. */
  consumer: string;
  /** Events one instance handles at once for this consumer (the first subscription of a consumer sets it). */
  prefetch?: number;
}

export type EventHandler = (envelope: EventEnvelope) => Promise<void>;

export interface Subscription {
  /**
   * Stops this handler. A service queue keeps its bindings, so events published while the service
   * does not consume wait for it; an instance queue goes away with its last handler.
   */
  unsubscribe(): Promise<void>;
}

export interface EventRetryPolicy {
  /** Deliveries of one event before it is dead-lettered (service) or dropped (instance). */
  maxAttempts: number;
  /** Wait before the second attempt; doubles for each later one. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_EVENT_RETRY: EventRetryPolicy = { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 10_000 };
export const DEFAULT_EVENT_PREFETCH = 16;

/**
 * Integration events on the `integration.events` topic exchange (routing key = event type).
 * Delivery is at-least-once: handlers are idempotent by `eventId` (see IdempotentConsumer).
 * Also the Nest injection token; the runtime profile decides what sits behind it.
 */
export abstract class EventBus implements OnApplicationShutdown {
  /** Resolves once the broker has the event (publisher confirm); rejects when it could not take it. */
  abstract publish(envelope: EventEnvelope): Promise<void>;

  /** Resolves once the queue is bound and consuming, so an event published afterwards is received. */
  abstract subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription>;

  /**
   * Subscribes to a family of events by its descriptor: the pattern is the family's, and each event
   * reaches `handler` with the contract its type names and its payload checked against it.
   */
  subscribeTo<F extends EventFamily>(
    family: F,
    options: Omit<SubscribeOptions, 'pattern'>,
    handler: (event: ReceivedEventOf<F>) => Promise<void>,
  ): Promise<Subscription> {
    return this.subscribe({ ...options, pattern: family.pattern }, (envelope) => handler(receiveEvent(family, envelope)));
  }

  /** For the readiness probe: resolves while the broker is reachable. */
  abstract ping(): Promise<void>;

  /** Stops consuming, lets handlers in progress finish (bounded), then disconnects. */
  abstract close(): Promise<void>;

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

import { Logger } from '@nestjs/common';
import { EventEnvelope } from '@lp/contracts';
import { randomBytes } from 'node:crypto';
import { Tracing } from '@lp/platform/observability';
import { InProcessBroker, InProcessEventMessage } from '../in-process/in-process-broker';
import { QueueConsumer } from '../in-process/in-process-queue';
import { MessagingNames } from '../messaging-names';
import { DEFAULT_EVENT_PREFETCH, DEFAULT_EVENT_RETRY, EventBus, EventHandler, EventRetryPolicy, SubscribeOptions, Subscription } from './event-bus';
import { EventDispatcher } from './event-dispatcher';
import { assertEventEnvelope } from './event-envelope';
import { SubscriptionTable } from './subscription-table';
import { assertTopicPattern } from './topic-pattern';

export interface InProcessEventBusOptions {
  /** Defaults to the process-wide broker, shared by every app of the standalone profile. */
  broker?: InProcessBroker;
  prefix?: string;
  retry?: Partial<EventRetryPolicy>;
  /** How long close() waits for handlers in progress before handing their events back. */
  shutdownGraceMs?: number;
}

interface ConsumerGroup {
  queue: string;
  table: SubscriptionTable;
  start(): void;
  stop(graceMs: number): Promise<void>;
}

/**
 * Integration events through the in-process broker, with the RabbitMQ topology: a topic exchange,
 * a durable queue per consuming service (competing consumers, dead-letter queue), an auto-delete
 * queue per instance. Events travel as JSON text, so every delivery is a fresh copy.
 */
export class InProcessEventBus extends EventBus {
  private readonly log = new Logger(InProcessEventBus.name);
  private readonly broker: InProcessBroker;
  private readonly names: MessagingNames;
  private readonly retry: EventRetryPolicy;
  private readonly instanceId = randomBytes(6).toString('hex');
  private readonly groups = new Map<string, ConsumerGroup>();
  private instanceQueues = 0;
  private closed = false;

  constructor(private readonly options: InProcessEventBusOptions = {}) {
    super();
    this.broker = options.broker ?? InProcessBroker.shared;
    this.names = new MessagingNames(options.prefix);
    this.retry = { ...DEFAULT_EVENT_RETRY, ...options.retry };
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('The event bus is closed');
    assertEventEnvelope(envelope);
    const message: InProcessEventMessage = { routingKey: envelope.eventType, content: JSON.stringify(envelope) };
    if (Tracing.enabled) Tracing.inject((message.headers = {}));
    this.broker.publish(this.names.eventsExchange, message);
  }

  async subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription> {
    if (this.closed) throw new Error('The event bus is closed');
    assertTopicPattern(options.pattern);
    const key = `${options.mode}:${options.consumer}`;
    const existing = this.groups.get(key);
    const group = existing ?? this.createGroup(options);
    // Registered before the first delivery can arrive: a service queue may hold a backlog.
    const remove = group.table.add(options.pattern, handler);
    if (!existing) {
      this.groups.set(key, group);
      group.start();
    }
    this.broker.bindQueue(group.queue, this.names.eventsExchange, options.pattern);
    const current = group;
    return {
      unsubscribe: async () => {
        remove();
        if (current.table.size > 0 || this.groups.get(key) !== current) return;
        this.groups.delete(key);
        await current.stop(this.options.shutdownGraceMs ?? 10_000);
      },
    };
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('The event bus is closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const groups = [...this.groups.values()];
    this.groups.clear();
    await Promise.all(groups.map((group) => group.stop(this.options.shutdownGraceMs ?? 10_000)));
  }

  private createGroup(options: SubscribeOptions): ConsumerGroup {
    const { consumer, mode } = options;
    let name: string;
    if (mode === 'service') {
      name = this.names.serviceQueue(consumer);
      const deadLetterQueue = this.names.deadLetterQueue(consumer);
      this.broker.assertEventQueue(deadLetterQueue);
      this.broker.assertEventQueue(name, { deadLetterQueue });
    } else {
      // A new name per queue: a queue still draining after an unsubscribe is never reused.
      name = this.names.instanceQueue(consumer, `${this.instanceId}-${++this.instanceQueues}`);
      this.broker.assertEventQueue(name, { autoDelete: true });
    }
    const table = new SubscriptionTable();
    const dispatcher = new EventDispatcher(consumer, mode, table, this.retry, this.log);
    let queueConsumer: QueueConsumer | undefined;
    return {
      queue: name,
      table,
      start: () => {
        queueConsumer = this.broker.assertEventQueue(name).consume(
          (delivery) =>
            dispatcher.dispatch({
              content: delivery.body.content,
              routingKey: delivery.body.routingKey,
              headers: delivery.body.headers,
              deliveryCount: delivery.deliveryCount,
              ack: () => delivery.ack(),
              reject: (requeue) => delivery.nack(requeue),
            }),
          options.prefetch ?? DEFAULT_EVENT_PREFETCH,
        );
      },
      stop: async (graceMs) => {
        queueConsumer?.cancel();
        await dispatcher.drain(graceMs);
        // Whatever is still unsettled goes back to the queue, as when an AMQP channel closes.
        queueConsumer?.close();
      },
    };
  }
}

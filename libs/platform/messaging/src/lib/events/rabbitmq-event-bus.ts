import { Logger } from '@nestjs/common';
import { EventEnvelope } from '@lp/contracts';
import { AMQP_SOCKET_OPTIONS } from '../rpc/rpc-queue-options';
import { amqpConsumerUp, CORRELATION_HEADER, Tracing } from '@lp/platform/observability';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { AmqpConnectionManager, ChannelWrapper, connect } from 'amqp-connection-manager';
import { randomBytes } from 'node:crypto';
import { MessagingNames } from '../messaging-names';
import { DEFAULT_EVENT_PREFETCH, DEFAULT_EVENT_RETRY, EventBus, EventHandler, EventRetryPolicy, SubscribeOptions, Subscription } from './event-bus';
import { EventDelivery, EventDispatcher } from './event-dispatcher';
import { assertEventEnvelope } from './event-envelope';
import { SubscriptionTable } from './subscription-table';
import { assertTopicPattern } from './topic-pattern';

export interface RabbitMqEventBusOptions {
  url: string | string[];
  prefix?: string;
  retry?: Partial<EventRetryPolicy>;
  /** A publish not confirmed within this time rejects (the outbox relay then backs off and retries). */
  publishTimeoutMs?: number;
  /** How long close() waits for handlers in progress; their events then go back to the queue. */
  shutdownGraceMs?: number;
  heartbeatSeconds?: number;
  reconnectSeconds?: number;
  /** Shown in the RabbitMQ management UI. */
  connectionName?: string;
}

interface ConsumerGroup {
  table: SubscriptionTable;
  /** Resolves once the queue is declared, bound and consumed. */
  ready: Promise<void>;
  bind(pattern: string): Promise<void>;
  stop(graceMs: number): Promise<void>;
  /** The connection dropped: the consumer is gone until the channel's setup runs again. */
  lost(): void;
}

const CHANNEL_CLOSE_TIMEOUT_MS = 1_000;

/**
 * Closes a channel without waiting forever: when the socket died a moment before, amqplib can wait
 * for a CloseOk that never comes. The broker requeues what the channel held either way.
 */
async function closeChannel(channel: ChannelWrapper): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([channel.close().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, CHANNEL_CLOSE_TIMEOUT_MS)))]);
  clearTimeout(timer);
}

/** Quorum queues count deliveries on the broker (`x-delivery-count`), across instances and crashes. */
function deliveryCountOf(message: ConsumeMessage): number {
  const count: unknown = message.properties.headers?.['x-delivery-count'];
  if (typeof count === 'number') return count;
  return message.fields.redelivered ? 1 : 0;
}

/**
 * Integration events on RabbitMQ through amqp-connection-manager: it reconnects on its own, runs
 * each channel's setup again on every (re)connection (so exchanges, queues, bindings and consumers
 * are asserted again), and publishes on a confirm channel, so publish() resolves only once the
 * broker took the event.
 *
 * Topology per consuming service (`mode: 'service'`): a durable quorum queue `{consumer}.events`
 * bound to the exchange with every subscribed pattern, dead-lettering to `{consumer}.events.dlq`
 * through the `.dlx` exchange. Per instance (`mode: 'instance'`): an exclusive auto-delete queue.
 * Each consumer group has its own channel, so its prefetch bounds only its own work.
 */
export class RabbitMqEventBus extends EventBus {
  private readonly log = new Logger(RabbitMqEventBus.name);
  private readonly names: MessagingNames;
  private readonly retry: EventRetryPolicy;
  private readonly instanceId = randomBytes(6).toString('hex');
  private readonly connection: AmqpConnectionManager;
  private readonly publisher: ChannelWrapper;
  private readonly publisherConnected: ConnectWaiter;
  private readonly groups = new Map<string, ConsumerGroup>();
  private instanceQueues = 0;
  private closed = false;
  private reachable = true;

  constructor(private readonly options: RabbitMqEventBusOptions) {
    super();
    this.names = new MessagingNames(options.prefix);
    this.retry = { ...DEFAULT_EVENT_RETRY, ...options.retry };
    this.connection = connect(Array.isArray(options.url) ? options.url : [options.url], {
      heartbeatIntervalInSeconds: options.heartbeatSeconds ?? 5,
      reconnectTimeInSeconds: options.reconnectSeconds ?? 1,
      connectionOptions: { ...AMQP_SOCKET_OPTIONS, clientProperties: { connection_name: options.connectionName ?? 'integration-events' } },
    });
    this.connection.on('connect', () => {
      if (!this.reachable) this.log.log('Connected to RabbitMQ again');
      this.reachable = true;
    });
    const lost = (err: unknown) => {
      if (this.reachable && !this.closed) this.log.warn({ err }, 'RabbitMQ unreachable; reconnecting');
      this.reachable = false;
      for (const group of this.groups.values()) group.lost();
    };
    this.connection.on('disconnect', ({ err }) => lost(err));
    this.connection.on('connectFailed', ({ err }) => lost(err));

    const exchange = this.names.eventsExchange;
    this.publisher = this.connection.createChannel({
      name: 'events-publisher',
      confirm: true,
      publishTimeout: options.publishTimeoutMs ?? 5_000,
      setup: async (channel: ConfirmChannel) => {
        await channel.assertExchange(exchange, 'topic', { durable: true });
      },
    });
    this.publisher.on('error', (err) => this.log.error({ err }, 'Publisher channel setup failed'));
    this.publisherConnected = new ConnectWaiter(this.publisher);
  }

  /** The correlation id, and the active span's `traceparent` (the outbox relay restores the row's). */
  private headersOf(envelope: EventEnvelope): Record<string, string> {
    const headers: Record<string, string> = envelope.correlationId ? { [CORRELATION_HEADER]: envelope.correlationId } : {};
    Tracing.inject(headers);
    return headers;
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('The event bus is closed');
    assertEventEnvelope(envelope);
    try {
      await this.publisher.publish(this.names.eventsExchange, envelope.eventType, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.eventId,
        type: envelope.eventType,
        timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
        headers: this.headersOf(envelope),
      });
    } catch (error) {
      throw new Error(`Publishing ${envelope.eventType} ${envelope.eventId} was not confirmed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  async subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription> {
    if (this.closed) throw new Error('The event bus is closed');
    assertTopicPattern(options.pattern);
    const key = `${options.mode}:${options.consumer}`;
    const existing = this.groups.get(key);
    const group = existing ?? this.createGroup(options);
    // Registered before the consumer starts: a durable service queue may hold a backlog.
    const remove = group.table.add(options.pattern, handler);
    if (!existing) this.groups.set(key, group);
    try {
      await group.ready;
      await group.bind(options.pattern);
    } catch (error) {
      remove();
      if (this.groups.get(key) === group && group.table.size === 0) {
        this.groups.delete(key);
        await group.stop(0);
      }
      throw error;
    }
    return {
      unsubscribe: async () => {
        remove();
        if (group.table.size > 0 || this.groups.get(key) !== group) return;
        this.groups.delete(key);
        await group.stop(this.options.shutdownGraceMs ?? 10_000);
      },
    };
  }

  /** Waits briefly for a connection in progress (a probe right after start should not fail). */
  async ping(waitMs = 1_000): Promise<void> {
    if (this.closed) throw new Error('The event bus is closed');
    if (this.connection.isConnected()) return;
    let timer: NodeJS.Timeout | undefined;
    const connected = await Promise.race([
      this.publisherConnected.wait().then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
    ]);
    clearTimeout(timer);
    if (!connected || this.closed) throw new Error('RabbitMQ is not connected');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const groups = [...this.groups.values()];
    this.groups.clear();
    await Promise.all(groups.map((group) => group.stop(this.options.shutdownGraceMs ?? 10_000)));
    await closeChannel(this.publisher);
    await this.connection.close();
  }

  private createGroup(options: SubscribeOptions): ConsumerGroup {
    const { consumer, mode } = options;
    const exchange = this.names.eventsExchange;
    const queue = mode === 'service' ? this.names.serviceQueue(consumer) : this.names.instanceQueue(consumer, `${this.instanceId}-${++this.instanceQueues}`);
    const table = new SubscriptionTable();
    const dispatcher = new EventDispatcher(consumer, mode, table, this.retry, this.log);
    const patterns = new Set<string>([options.pattern]);
    const prefetch = options.prefetch ?? DEFAULT_EVENT_PREFETCH;
    let consuming: { channel: Channel; consumerTag: string } | undefined;
    let stopped = false;
    // amqp_consumer_up: 1 once consuming, 0 when the connection drops or the broker cancels the consumer.
    const up = { service: consumer, consumer: mode === 'service' ? 'events' : 'instance-events' };

    const delivery = (channel: Channel, message: ConsumeMessage): EventDelivery => {
      // Settled on the channel that delivered it: after a reconnect its delivery tag means
      // nothing on the new channel, and the broker has already requeued the message.
      const settle = (action: () => void) => {
        try {
          action();
        } catch {
          // channel closed: the broker hands the message out again
        }
      };
      return {
        content: message.content,
        routingKey: message.fields.routingKey,
        headers: message.properties.headers,
        deliveryCount: deliveryCountOf(message),
        ack: () => settle(() => channel.ack(message)),
        reject: (requeue) => settle(() => channel.nack(message, false, requeue)),
      };
    };

    const channel = this.connection.createChannel({
      name: `events:${queue}`,
      confirm: false,
      setup: async (ch: Channel) => {
        await ch.assertExchange(exchange, 'topic', { durable: true });
        if (mode === 'service') {
          const deadLetterExchange = this.names.deadLetterExchange;
          const deadLetterQueue = this.names.deadLetterQueue(consumer);
          await ch.assertExchange(deadLetterExchange, 'direct', { durable: true });
          await ch.assertQueue(deadLetterQueue, { durable: true });
          await ch.bindQueue(deadLetterQueue, deadLetterExchange, queue);
          await ch.assertQueue(queue, {
            durable: true,
            arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': deadLetterExchange, 'x-dead-letter-routing-key': queue },
          });
        } else {
          await ch.assertQueue(queue, { durable: false, exclusive: true, autoDelete: true });
        }
        for (const pattern of patterns) await ch.bindQueue(queue, exchange, pattern);
        if (stopped) return;
        await ch.prefetch(prefetch);
        const { consumerTag } = await ch.consume(
          queue,
          (message) => {
            if (message) return dispatcher.dispatch(delivery(ch, message));
            // The broker cancelled the consumer (queue deleted, quorum leader lost): nothing restarts it
            // short of a reconnection, so it is said loudly and shown on /metrics.
            if (stopped) return;
            amqpConsumerUp.set(up, 0);
            this.log.error({ queue }, 'RabbitMQ cancelled the event consumer: no events are consumed from this queue until the service reconnects or restarts');
          },
          { noAck: false },
        );
        consuming = { channel: ch, consumerTag };
        amqpConsumerUp.set(up, 1);
      },
    });
    channel.on('error', (err) => this.log.error({ err, queue }, 'Consumer channel setup failed'));
    const connected = new ConnectWaiter(channel);

    return {
      table,
      ready: connected.wait(),
      bind: async (pattern) => {
        if (patterns.has(pattern)) return;
        patterns.add(pattern);
        // Bound now on the live channel, and by the setup on every later reconnection.
        await connected.wait();
        await channel.bindQueue(queue, exchange, pattern);
      },
      lost: () => {
        if (!stopped) amqpConsumerUp.set(up, 0);
      },
      stop: async (graceMs) => {
        stopped = true;
        amqpConsumerUp.remove(up);
        if (consuming) await consuming.channel.cancel(consuming.consumerTag).catch(() => undefined);
        await dispatcher.drain(graceMs);
        // Closing the channel hands every unacknowledged event back to the queue.
        await closeChannel(channel);
      },
    };
  }
}

/**
 * One pending wait for a channel's connection, however many callers wait on it. Each
 * `ChannelWrapper.waitForConnect()` adds a 'connect' listener that stays until the channel connects,
 * so readiness probes during a broker outage (and the binds of a start-up before the connection)
 * piled listeners up until Node warned MaxListenersExceeded. Callers share one promise instead.
 */
export class ConnectWaiter {
  private pending?: Promise<void>;

  constructor(private readonly channel: Pick<ChannelWrapper, 'waitForConnect'>) {}

  wait(): Promise<void> {
    this.pending ??= this.channel.waitForConnect().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }
}

/** One delivery of a queued message to a consumer; settle it exactly once (later calls are ignored). */
export interface QueueDelivery<T> {
  readonly body: T;
  /** How often the message was delivered before without being acknowledged (RabbitMQ's `x-delivery-count`). */
  readonly deliveryCount: number;
  ack(): void;
  /** `requeue: false` dead-letters the message when the queue has a dead-letter target, else drops it. */
  nack(requeue: boolean): void;
}

export interface QueueConsumer {
  /** Stops new deliveries; deliveries in progress may still be settled (AMQP `basic.cancel`). */
  cancel(): void;
  /** Cancels and puts every unsettled delivery back at the head of the queue (AMQP channel close). */
  close(): void;
}

export interface InProcessQueueOptions<T> {
  /** Receives messages rejected without requeue (AMQP dead-letter exchange). */
  deadLetter?: (body: T) => void;
  /** Deleted when its last consumer goes (AMQP auto-delete). */
  autoDelete?: boolean;
}

interface Message<T> {
  body: T;
  deliveryCount: number;
  expiresAt?: number;
}

interface Consumer<T> {
  onDelivery: (delivery: QueueDelivery<T>) => void;
  prefetch: number;
  unsettled: Set<Message<T>>;
  active: boolean;
}

/**
 * An AMQP-like queue in memory, so the in-process transport keeps RabbitMQ's semantics instead of
 * approximating them: competing consumers served round-robin, per-consumer prefetch, ack/nack with
 * requeue and dead-lettering, unsettled messages returned when a consumer dies, expiry of messages
 * nobody took in time, and asynchronous delivery (never inside the publisher's call stack).
 */
export class InProcessQueue<T> {
  private readonly ready: Message<T>[] = [];
  private readonly consumers: Array<Consumer<T>> = [];
  private next = 0;
  private scheduled = false;
  private deleted = false;

  constructor(
    readonly name: string,
    private readonly options: InProcessQueueOptions<T> = {},
    private readonly onDeleted: () => void = () => undefined,
  ) {}

  get depth(): number {
    return this.ready.length;
  }

  get consumerCount(): number {
    return this.consumers.length;
  }

  enqueue(body: T, options: { expiresAt?: number } = {}): void {
    if (this.deleted) return;
    this.ready.push({ body, deliveryCount: 0, expiresAt: options.expiresAt });
    this.schedule();
  }

  /** Removes and returns every waiting message (for reading a dead-letter queue). */
  takeAll(): T[] {
    return this.ready.splice(0).map((m) => m.body);
  }

  consume(onDelivery: (delivery: QueueDelivery<T>) => void, prefetch: number): QueueConsumer {
    if (this.deleted) throw new Error(`Queue ${this.name} was deleted`);
    if (!(prefetch >= 1)) throw new RangeError(`prefetch must be at least 1, got ${prefetch}`);
    const consumer: Consumer<T> = { onDelivery, prefetch, unsettled: new Set(), active: true };
    this.consumers.push(consumer);
    this.schedule();
    const cancel = () => {
      if (!consumer.active) return;
      consumer.active = false;
      this.consumers.splice(this.consumers.indexOf(consumer), 1);
    };
    return {
      cancel,
      close: () => {
        cancel();
        const returned = [...consumer.unsettled];
        consumer.unsettled.clear();
        for (const message of returned) message.deliveryCount += 1;
        this.ready.unshift(...returned);
        if (this.options.autoDelete && this.consumers.length === 0) this.delete();
        else this.schedule();
      },
    };
  }

  delete(): void {
    if (this.deleted) return;
    this.deleted = true;
    this.ready.length = 0;
    for (const consumer of this.consumers.splice(0)) consumer.active = false;
    this.onDeleted();
  }

  private schedule(): void {
    if (this.scheduled || this.deleted) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let head = this.ready[0]; head !== undefined; head = this.ready[0]) {
      if (head.expiresAt !== undefined && head.expiresAt <= Date.now()) {
        this.ready.shift();
        continue;
      }
      const consumer = this.nextConsumerWithCredit();
      if (!consumer) return;
      this.ready.shift();
      this.deliver(consumer, head);
    }
  }

  private nextConsumerWithCredit(): Consumer<T> | undefined {
    for (let i = 0; i < this.consumers.length; i++) {
      const consumer = this.consumers[(this.next + i) % this.consumers.length];
      // Always present (the index is taken modulo the length); the check only narrows the type.
      if (consumer !== undefined && consumer.unsettled.size < consumer.prefetch) {
        this.next = (this.next + i + 1) % this.consumers.length;
        return consumer;
      }
    }
    return undefined;
  }

  private deliver(consumer: Consumer<T>, message: Message<T>): void {
    consumer.unsettled.add(message);
    const settle = (outcome: 'ack' | 'requeue' | 'reject') => {
      // Settling after the consumer died is a no-op: the message was already returned to the queue.
      if (!consumer.unsettled.delete(message)) return;
      if (outcome === 'requeue') {
        message.deliveryCount += 1;
        this.ready.push(message);
      } else if (outcome === 'reject') {
        this.options.deadLetter?.(message.body);
      }
      this.schedule();
    };
    const delivery: QueueDelivery<T> = {
      body: message.body,
      deliveryCount: message.deliveryCount,
      ack: () => settle('ack'),
      nack: (requeue) => settle(requeue ? 'requeue' : 'reject'),
    };
    consumer.onDelivery(delivery);
  }
}

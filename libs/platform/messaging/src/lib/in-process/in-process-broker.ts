import type { WritePacket } from '@nestjs/microservices';
import { InProcessQueue } from './in-process-queue';
import { InProcessTopicExchange } from './in-process-topic-exchange';

/** An RPC request on a service's in-process queue; `reply` is the caller's direct reply-to. */
export interface InProcessRpcRequest {
  pattern: string;
  /** Already a JSON copy: nothing is shared by reference between caller and handler. */
  data: unknown;
  headers: Record<string, string>;
  reply(packet: WritePacket): void;
}

/** An integration event as it travels: the JSON text, like an AMQP body, parsed afresh per delivery. */
export interface InProcessEventMessage {
  routingKey: string;
  content: string;
  /** Message headers, as AMQP carries them (`traceparent` while tracing records). */
  headers?: Record<string, string>;
}

export interface EventQueueDeclaration {
  /** Where rejected messages go (the service's dead-letter queue). */
  deadLetterQueue?: string;
  autoDelete?: boolean;
}

/**
 * The in-process stand-in for RabbitMQ: named queues and topic exchanges with the same topology
 * the RabbitMQ adapters declare. One process-wide instance (`InProcessBroker.shared`) lets the
 * standalone app, where every service's Nest app lives in one process, route `authz.decide` from one
 * app's client to another app's handler and an event from one app's outbox to another's consumer.
 */
export class InProcessBroker {
  static readonly shared = new InProcessBroker();

  private readonly rpcQueues = new Map<string, InProcessQueue<InProcessRpcRequest>>();
  private readonly eventQueues = new Map<string, InProcessQueue<InProcessEventMessage>>();
  private readonly exchanges = new Map<string, InProcessTopicExchange>();

  /** A service's RPC queue, declared on first use by client or server (like the RMQ transport). */
  rpcQueue(name: string): InProcessQueue<InProcessRpcRequest> {
    let queue = this.rpcQueues.get(name);
    if (!queue) this.rpcQueues.set(name, (queue = new InProcessQueue(name)));
    return queue;
  }

  assertEventQueue(name: string, declaration: EventQueueDeclaration = {}): InProcessQueue<InProcessEventMessage> {
    const existing = this.eventQueues.get(name);
    if (existing) return existing;
    const { deadLetterQueue } = declaration;
    const queue = new InProcessQueue<InProcessEventMessage>(
      name,
      {
        autoDelete: declaration.autoDelete,
        deadLetter: deadLetterQueue ? (message) => this.assertEventQueue(deadLetterQueue).enqueue(message) : undefined,
      },
      () => {
        this.eventQueues.delete(name);
        for (const exchange of this.exchanges.values()) exchange.unbindAll(name);
      },
    );
    this.eventQueues.set(name, queue);
    return queue;
  }

  eventQueue(name: string): InProcessQueue<InProcessEventMessage> | undefined {
    return this.eventQueues.get(name);
  }

  bindQueue(queue: string, exchange: string, pattern: string): void {
    let target = this.exchanges.get(exchange);
    if (!target) this.exchanges.set(exchange, (target = new InProcessTopicExchange()));
    target.bind(queue, pattern);
  }

  /** Routes to every bound queue; with no binding the message is dropped, as on a topic exchange. */
  publish(exchange: string, message: InProcessEventMessage): void {
    for (const name of this.exchanges.get(exchange)?.route(message.routingKey) ?? []) {
      this.eventQueues.get(name)?.enqueue({ ...message });
    }
  }
}

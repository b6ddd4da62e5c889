import { INTEGRATION_EVENTS_EXCHANGE } from '@lp/contracts';

const PREFIX = /^[A-Za-z0-9_.-]*$/;
const NAME = /^[a-z0-9][a-z0-9._-]*$/;

function checked(kind: string, value: string): string {
  if (!NAME.test(value)) throw new Error(`Invalid ${kind} name "${value}": lower-case letters, digits, ".", "_" and "-"`);
  return value;
}

/**
 * Every queue and exchange name of the messaging topology, in one place so both transports (and
 * the tests that clean up after themselves) derive exactly the same names from a prefix.
 */
export class MessagingNames {
  constructor(readonly prefix = '') {
    if (!PREFIX.test(prefix)) throw new Error(`Invalid queue prefix "${prefix}"`);
  }

  /** One durable queue per service for its RPC handlers: `{service}.rpc`. */
  rpcQueue(service: string): string {
    return `${this.prefix}${checked('service', service)}.rpc`;
  }

  /** The topic exchange of integration events; routing key = event type. */
  get eventsExchange(): string {
    return `${this.prefix}${INTEGRATION_EVENTS_EXCHANGE}`;
  }

  /** Where service queues send what failed too often (one exchange, routed to each service's DLQ). */
  get deadLetterExchange(): string {
    return `${this.prefix}${INTEGRATION_EVENTS_EXCHANGE}.dlx`;
  }

  /** The durable, competing-consumers queue of one consuming service. */
  serviceQueue(consumer: string): string {
    return `${this.prefix}${checked('consumer', consumer)}.events`;
  }

  deadLetterQueue(consumer: string): string {
    return `${this.serviceQueue(consumer)}.dlq`;
  }

  /** The exclusive queue of one running instance (fan-out to every replica). */
  instanceQueue(consumer: string, instanceId: string): string {
    return `${this.serviceQueue(consumer)}.instance.${instanceId}`;
  }

  /**
   * The durable queues and exchanges declared under this prefix for `services` (each one's RPC
   * queue, event queue and dead-letter queue; the events exchange and its dead-letter exchange): what
   * a test run deletes by name. A running instance's own queue is exclusive and goes with its connection.
   */
  durableObjects(services: readonly string[]): { queues: string[]; exchanges: string[] } {
    return {
      queues: services.flatMap((service) => [this.rpcQueue(service), this.serviceQueue(service), this.deadLetterQueue(service)]),
      exchanges: [this.eventsExchange, this.deadLetterExchange],
    };
  }
}

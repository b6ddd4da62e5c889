import type { InProcessBroker } from './in-process/in-process-broker';

/**
 * Which transport a service talks over (ARCHITECTURE.md, Runtime profiles): RabbitMQ when
 * `AMQP_URL` is set, otherwise the in-process transport with the same patterns, routing keys and
 * handlers. The shape matches the runtime's `PlatformRuntime.messaging`, so it can be passed as is.
 *
 * `prefix` is put in front of every queue and exchange name so each test run (or environment
 * sharing a broker) gets its own topology.
 */
export type MessagingProfile =
  | { kind: 'rabbitmq'; url: string | string[]; prefix?: string }
  | { kind: 'in-process'; prefix?: string; /** Defaults to the process-wide broker. */ broker?: InProcessBroker };

import { EventRetryPolicy } from './events/event-bus';
import { EventBus } from './events/event-bus';
import { InProcessEventBus } from './events/in-process-event-bus';
import { RabbitMqEventBus } from './events/rabbitmq-event-bus';
import { MessagingProfile } from './messaging-profile';
import { InProcessRpcClient } from './rpc/in-process-rpc-client';
import { RabbitMqRpcClient } from './rpc/rabbitmq-rpc-client';
import { RpcClient, RpcClientOptions } from './rpc/rpc-client';

export type RpcClientSettings = Omit<RpcClientOptions, 'prefix'>;

export interface EventBusSettings {
  retry?: Partial<EventRetryPolicy>;
  /** RabbitMQ only: how long a publish may wait for the broker's confirm. */
  publishTimeoutMs?: number;
  shutdownGraceMs?: number;
  /** RabbitMQ only: the connection's name in the management UI (the service name). */
  connectionName?: string;
}

/** The RpcClient adapter of the profile. */
export function createRpcClient(profile: MessagingProfile, settings: RpcClientSettings = {}): RpcClient {
  return profile.kind === 'rabbitmq'
    ? new RabbitMqRpcClient({ ...settings, url: profile.url, prefix: profile.prefix })
    : new InProcessRpcClient({ ...settings, prefix: profile.prefix, broker: profile.broker });
}

/** The EventBus adapter of the profile. */
export function createEventBus(profile: MessagingProfile, settings: EventBusSettings = {}): EventBus {
  if (profile.kind === 'rabbitmq') return new RabbitMqEventBus({ ...settings, url: profile.url, prefix: profile.prefix });
  const { retry, shutdownGraceMs } = settings;
  return new InProcessEventBus({ retry, shutdownGraceMs, prefix: profile.prefix, broker: profile.broker });
}

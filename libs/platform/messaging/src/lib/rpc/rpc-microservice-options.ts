import { CustomStrategy } from '@nestjs/microservices';
import { MessagingNames } from '../messaging-names';
import { MessagingProfile } from '../messaging-profile';
import { InProcessRpcServer } from './in-process-rpc-server';
import { RabbitMqRpcServer, RabbitMqRpcServerOptions } from './rabbitmq-rpc-server';
import { AMQP_SOCKET_OPTIONS, DEFAULT_RPC_PREFETCH, RPC_QUEUE_OPTIONS } from './rpc-queue-options';

export interface RpcServerOptions {
  /** Requests one instance works on at once; the rest wait in the queue for any instance. */
  prefetchCount?: number;
}

/**
 * The Nest microservice options serving a service's `@MessagePattern` handlers on its queue
 * `{prefix}{service}.rpc`: for `app.connectMicroservice(...)` in a hybrid app or
 * `NestFactory.createMicroservice(...)`.
 *
 * RabbitMQ: Nest's RMQ transport (a durable queue, manual ack, bounded prefetch) through
 * RabbitMqRpcServer, a ServerRMQ subclass, because acknowledging, restoring the correlation id and
 * answering with problems must happen in the transport (the plain `{ transport: Transport.RMQ }`
 * form gives no handle on the server). `options` repeats the RMQ settings for inspection.
 * In-process: InProcessRpcServer on the (by default process-wide) in-process broker.
 */
export function rpcMicroserviceOptions(
  profile: MessagingProfile,
  service: string,
  options: RpcServerOptions = {},
): CustomStrategy & { options?: RabbitMqRpcServerOptions } {
  const queue = new MessagingNames(profile.prefix).rpcQueue(service);
  const prefetchCount = options.prefetchCount ?? DEFAULT_RPC_PREFETCH;
  if (profile.kind === 'in-process') {
    return { strategy: new InProcessRpcServer({ queue, service, broker: profile.broker, prefetchCount }) };
  }
  const rmq: RabbitMqRpcServerOptions = {
    urls: Array.isArray(profile.url) ? profile.url : [profile.url],
    queue,
    queueOptions: RPC_QUEUE_OPTIONS,
    noAck: false,
    prefetchCount,
    isGlobalPrefetchCount: false,
    persistent: false,
    socketOptions: { heartbeatIntervalInSeconds: 5, reconnectTimeInSeconds: 1, connectionOptions: AMQP_SOCKET_OPTIONS },
  } as RabbitMqRpcServerOptions;
  return { strategy: new RabbitMqRpcServer(rmq, service), options: rmq };
}

import { ClientProxy, ClientProxyFactory, RmqRecordBuilder, Transport } from '@nestjs/microservices';
import { lastValueFrom, throwError, timeout } from 'rxjs';
import { MessagingNames } from '../messaging-names';
import { RpcCallOptions, RpcClient, RpcClientOptions } from './rpc-client';
import { RpcTransportError, toRpcError } from './rpc-errors';
import { AMQP_SOCKET_OPTIONS, RPC_QUEUE_OPTIONS } from './rpc-queue-options';

export interface RabbitMqRpcClientOptions extends RpcClientOptions {
  url: string | string[];
  heartbeatSeconds?: number;
}

/**
 * RPC over RabbitMQ with Nest's built-in RMQ client: requests go to the target service's durable
 * queue, answers come back through direct reply-to (no reply queue to declare or clean up).
 * One Nest client per target service, because a ClientRMQ is bound to one queue; each opens its
 * connection on first use.
 */
export class RabbitMqRpcClient extends RpcClient {
  private readonly names: MessagingNames;
  private readonly urls: string[];
  private readonly proxies = new Map<string, ClientProxy>();
  private closed = false;

  constructor(private readonly options: RabbitMqRpcClientOptions) {
    super(options);
    this.names = new MessagingNames(options.prefix);
    this.urls = Array.isArray(options.url) ? options.url : [options.url];
  }

  send<TResult>(pattern: string, data: unknown, options?: RpcCallOptions): Promise<TResult> {
    return this.traced(pattern, options, 'rabbitmq', () => this.sendNow<TResult>(pattern, data, options));
  }

  private async sendNow<TResult>(pattern: string, data: unknown, options?: RpcCallOptions): Promise<TResult> {
    if (this.closed) throw new RpcTransportError(pattern, 'the client is closed');
    const timeoutMs = this.timeoutOf(pattern, options);
    const proxy = this.proxyFor(this.targetService(pattern, options));
    const record = new RmqRecordBuilder(data ?? null)
      .setOptions({
        headers: this.requestHeaders(timeoutMs),
        // A request outliving its caller's patience is dropped by the broker instead of piling up
        // in the queue of a service that is down.
        expiration: String(timeoutMs),
        contentType: 'application/json',
      })
      .build();
    try {
      const answer$ = proxy
        .send<TResult>(pattern, record)
        .pipe(timeout({ first: timeoutMs, with: () => throwError(() => this.noAnswer(pattern, timeoutMs, options)) }));
      return await lastValueFrom(answer$, { defaultValue: undefined as TResult });
    } catch (error) {
      throw toRpcError(error, pattern);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const proxies = [...this.proxies.values()];
    this.proxies.clear();
    await Promise.allSettled(proxies.map((proxy) => proxy.close()));
  }

  private proxyFor(service: string): ClientProxy {
    let proxy = this.proxies.get(service);
    if (!proxy) {
      proxy = ClientProxyFactory.create({
        transport: Transport.RMQ,
        options: {
          urls: this.urls,
          queue: this.names.rpcQueue(service),
          queueOptions: RPC_QUEUE_OPTIONS,
          persistent: false,
          socketOptions: {
            heartbeatIntervalInSeconds: this.options.heartbeatSeconds ?? 5,
            reconnectTimeInSeconds: 1,
            connectionOptions: AMQP_SOCKET_OPTIONS,
          },
        },
      });
      this.proxies.set(service, proxy);
    }
    return proxy;
  }
}

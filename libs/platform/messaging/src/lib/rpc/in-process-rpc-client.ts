import type { WritePacket } from '@nestjs/microservices';
import { InProcessBroker } from '../in-process/in-process-broker';
import { jsonCopy } from '../in-process/json-copy';
import { MessagingNames } from '../messaging-names';
import { RpcCallOptions, RpcClient, RpcClientOptions } from './rpc-client';
import { RpcTransportError, toRpcError } from './rpc-errors';

export interface InProcessRpcClientOptions extends RpcClientOptions {
  /** Defaults to the process-wide broker the in-process servers listen on. */
  broker?: InProcessBroker;
}

/**
 * RPC through the in-process broker: the request waits on the target service's queue like an AMQP
 * message (it expires with the caller's timeout), and the answer comes back as the same reply
 * packets Nest's RMQ server sends, so errors, timeouts and results behave as over RabbitMQ.
 */
export class InProcessRpcClient extends RpcClient {
  private readonly broker: InProcessBroker;
  private readonly names: MessagingNames;
  private readonly inFlight = new Set<() => void>();
  private closed = false;

  constructor(options: InProcessRpcClientOptions = {}) {
    super(options);
    this.broker = options.broker ?? InProcessBroker.shared;
    this.names = new MessagingNames(options.prefix);
  }

  send<TResult>(pattern: string, data: unknown, options?: RpcCallOptions): Promise<TResult> {
    return this.traced(pattern, options, 'in-process', () => this.sendNow<TResult>(pattern, data, options));
  }

  private async sendNow<TResult>(pattern: string, data: unknown, options?: RpcCallOptions): Promise<TResult> {
    if (this.closed) throw new RpcTransportError(pattern, 'the client is closed');
    const timeoutMs = this.timeoutOf(pattern, options);
    const queue = this.broker.rpcQueue(this.names.rpcQueue(this.targetService(pattern, options)));
    const headers = this.requestHeaders(timeoutMs);
    const payload = jsonCopy(data ?? null);

    return new Promise<TResult>((resolve, reject) => {
      let answer: unknown;
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(abort);
        finish();
      };
      const abort = () => settle(() => reject(new RpcTransportError(pattern, 'the client is closed')));
      const timer = setTimeout(() => settle(() => reject(this.noAnswer(pattern, timeoutMs, options))), timeoutMs);
      this.inFlight.add(abort);

      const reply = (packet: WritePacket) => {
        if (settled) return;
        const { err, response, isDisposed } = jsonCopy(packet) ?? {};
        if (err) return settle(() => reject(toRpcError(err, pattern)));
        if (response !== undefined) answer = response;
        if (isDisposed) settle(() => resolve(answer as TResult));
      };
      queue.enqueue({ pattern, data: payload, headers, reply }, { expiresAt: Date.now() + timeoutMs });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const abort of [...this.inFlight]) abort();
  }
}

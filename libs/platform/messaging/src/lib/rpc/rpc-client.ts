import { OnApplicationShutdown } from '@nestjs/common';
import type { AnyRpcContract, MessageOf, ReplyOf } from '@lp/contracts';
import { CORRELATION_HEADER, CorrelationContext, DEADLINE_HEADER, RequestDeadline, SpanKind, Tracing } from '@lp/platform/observability';
import { RpcDeadlineExceededError, RpcTimeoutError, RpcTransportError } from './rpc-errors';
import { RpcRouter, RpcRoutes } from './rpc-routes';

export interface RpcCallOptions {
  /**
   * How long to wait for the answer; the call rejects with RpcTimeoutError after it. Inside a
   * request with a deadline (`RequestDeadline`), never longer than what is left of it.
   */
  timeoutMs?: number;
  /** The service to ask, when the pattern's route does not say (e.g. `diagnostics.snapshot` to each service). */
  service?: string;
}

export interface RpcClientOptions {
  /** Prefix of every queue name (one per test run). */
  prefix?: string;
  routes?: RpcRoutes;
  /** Timeout of a call that names none. */
  defaultTimeoutMs?: number;
}

export const DEFAULT_RPC_TIMEOUT_MS = 5_000;

/**
 * Request/response between services. Also the Nest injection token: services depend on this
 * abstract class, and the runtime profile decides whether RabbitMQ or the in-process broker sits
 * behind it.
 *
 * A call rejects with RpcTimeoutError (no answer in time), RpcTransportError (could not deliver or
 * receive) or RpcRemoteError (the handler failed; `.problem` is its problem object).
 */
export abstract class RpcClient implements OnApplicationShutdown {
  protected readonly router: RpcRouter;
  protected readonly defaultTimeoutMs: number;

  protected constructor(options: RpcClientOptions) {
    this.router = new RpcRouter(options.routes);
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  }

  /**
   * Asks the contract's service: the message must be the contract's `{ caller, payload }` and the
   * answer is its reply type. Services call this, never `send`.
   */
  call<C extends AnyRpcContract>(contract: C, message: MessageOf<C>, options?: Omit<RpcCallOptions, 'service'>): Promise<ReplyOf<C>> {
    return this.send<ReplyOf<C>>(contract.pattern, message, { ...options, service: contract.service });
  }

  /** The untyped transport primitive under `call` (the transport's own tests and diagnostics use it). */
  abstract send<TResult>(pattern: string, data: unknown, options?: RpcCallOptions): Promise<TResult>;

  abstract close(): Promise<void>;

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  protected targetService(pattern: string, options: RpcCallOptions | undefined): string {
    const service = this.router.serviceFor(pattern, options?.service);
    if (!service) throw new RpcTransportError(pattern, 'no RPC route names a service for this pattern');
    return service;
  }

  /**
   * The call's timeout: its own (or the client's default), cut to what is left of the request in
   * progress, so an RPC never waits longer than its caller will. A request whose budget is already
   * spent sends nothing: its caller has given up.
   */
  protected timeoutOf(pattern: string, options: RpcCallOptions | undefined): number {
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    if (!(timeoutMs > 0)) throw new RangeError(`RPC timeout must be positive, got ${timeoutMs}`);
    const remaining = RequestDeadline.remainingMs();
    if (remaining === undefined || remaining >= timeoutMs) return timeoutMs;
    if (remaining <= 0) throw new RpcDeadlineExceededError(pattern);
    return Math.ceil(remaining);
  }

  /**
   * The rejection of a call that got no answer within `timeoutMs` (from `timeoutOf`): the request's
   * deadline when that is what cut the wait short, else the callee's timeout.
   */
  protected noAnswer(pattern: string, timeoutMs: number, options: RpcCallOptions | undefined): RpcTimeoutError {
    return timeoutMs < (options?.timeoutMs ?? this.defaultTimeoutMs)
      ? new RpcDeadlineExceededError(pattern, timeoutMs)
      : new RpcTimeoutError(pattern, timeoutMs);
  }

  /**
   * The headers of a request: its deadline (`x-deadline`, epoch ms: the server drops the request
   * unexecuted once it has passed, as its caller no longer waits), the caller's correlation id,
   * which travels like HTTP's `X-Correlation-Id`, and while tracing records, the call's span as
   * W3C Trace Context (`traceparent`), which the server continues.
   */
  protected requestHeaders(timeoutMs: number): Record<string, string> {
    const headers: Record<string, string> = { [DEADLINE_HEADER]: String(Date.now() + timeoutMs) };
    const correlationId = CorrelationContext.current();
    if (correlationId) headers[CORRELATION_HEADER] = correlationId;
    Tracing.inject(headers);
    return headers;
  }

  /**
   * The call as a client span named by its pattern (`cases.create`), the parent of the server's
   * span; `send` builds its headers inside it. Only a flag test while tracing is off.
   */
  protected traced<T>(pattern: string, options: RpcCallOptions | undefined, transport: string, send: () => Promise<T>): Promise<T> {
    if (!Tracing.enabled) return send();
    const attributes = { 'rpc.system': transport, 'rpc.method': pattern, 'rpc.service': this.router.serviceFor(pattern, options?.service) ?? 'unknown' };
    return Tracing.run(pattern, { kind: SpanKind.CLIENT, attributes }, send);
  }
}

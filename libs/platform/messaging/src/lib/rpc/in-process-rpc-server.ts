import { Logger } from '@nestjs/common';
import { BaseRpcContext, CustomTransportStrategy, Server, WritePacket } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { CORRELATION_HEADER, CorrelationContext, DEADLINE_HEADER, parseDeadlineHeader } from '@lp/platform/observability';
import { Observable, Subscription } from 'rxjs';
import { InProcessBroker, InProcessRpcRequest } from '../in-process/in-process-broker';
import { QueueConsumer, QueueDelivery } from '../in-process/in-process-queue';
import { InProcessRpcContext } from './in-process-rpc-context';
import { DEFAULT_RPC_PREFETCH } from './rpc-queue-options';
import { answeringFailures, withProblemErrors } from './rpc-server-errors';
import { timedRespond } from './rpc-server-metrics';
import { callerGaveUp, handleWithinDeadline } from './rpc-server-deadline';
import { isPlainPatternName } from './rpc-pattern-route';
import { handleInServerSpan } from './rpc-server-tracing';

export const IN_PROCESS_TRANSPORT = Symbol('in-process');

export interface InProcessRpcServerOptions {
  /** The service's RPC queue (`{prefix}{service}.rpc`). */
  queue: string;
  /** The `service` label of the request metrics. */
  service: string;
  broker?: InProcessBroker;
  prefetchCount?: number;
}

/**
 * A Nest transport strategy that serves the app's `@MessagePattern` handlers from the service's
 * queue on the in-process broker. Several servers on one queue compete for requests, a server
 * closed mid-request hands it back to the queue for another one, and the fleet's conventions
 * (correlation id restored before guards, acknowledgement once handled, problem objects for every
 * failure, request metrics, requests whose caller gave up dropped unexecuted) are the same as
 * RabbitMqRpcServer's.
 */
export class InProcessRpcServer extends Server implements CustomTransportStrategy {
  override transportId = IN_PROCESS_TRANSPORT;
  private readonly log = new Logger(InProcessRpcServer.name);
  private readonly broker: InProcessBroker;
  private readonly deliveries = new WeakMap<BaseRpcContext, QueueDelivery<InProcessRpcRequest>>();
  private consumer?: QueueConsumer;
  private listening = { open: false };

  constructor(private readonly options: InProcessRpcServerOptions) {
    super();
    this.broker = options.broker ?? InProcessBroker.shared;
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    const listening = (this.listening = { open: true });
    this.consumer = this.broker
      .rpcQueue(this.options.queue)
      .consume((delivery) => this.handleDelivery(delivery, listening), this.options.prefetchCount ?? DEFAULT_RPC_PREFETCH);
    callback();
  }

  close(): void {
    this.listening.open = false;
    this.consumer?.close();
    this.consumer = undefined;
  }

  on(): void {
    // The in-process broker has no connection events to listen to.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  /** Plain pattern names route as themselves, without Nest's failing JSON.parse per message. */
  protected override getRouteFromPattern(pattern: string): string {
    return isPlainPatternName(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }

  protected override runWithProcessingHooks(context: BaseRpcContext, fn: (runEndHook: () => void) => Promise<void>, endHookContext?: BaseRpcContext): void {
    const correlationId = context instanceof InProcessRpcContext ? context.getHeaders()[CORRELATION_HEADER] : undefined;
    return CorrelationContext.run(correlationId, () => super.runWithProcessingHooks(context, fn, endHookContext));
  }

  protected override createProcessingEndHookRunner(context: BaseRpcContext): () => void {
    const runEndHook = super.createProcessingEndHookRunner(context);
    return () => {
      runEndHook();
      this.deliveries.get(context)?.ack();
    };
  }

  protected override handleRequest(
    context: BaseRpcContext,
    produce: () => Promise<Observable<unknown>>,
    respond: (data: WritePacket) => Promise<unknown> | void,
  ): void {
    const pattern = context instanceof InProcessRpcContext ? context.getPattern() : 'unknown';
    const headers = context instanceof InProcessRpcContext ? context.getHeaders() : undefined;
    const deadlineAt = parseDeadlineHeader(headers?.[DEADLINE_HEADER]);
    if (callerGaveUp(this.options.service, pattern, deadlineAt)) return this.deliveries.get(context)?.ack();
    handleInServerSpan(this.options.service, pattern, 'in-process', headers, timedRespond(this.options.service, pattern, respond), (traced) =>
      handleWithinDeadline(deadlineAt, traced, (answer) => super.handleRequest(context, answeringFailures(produce, this.log), answer)),
    );
  }

  override send(stream$: Observable<unknown>, respond: (data: WritePacket) => Promise<unknown> | void): Subscription {
    return super.send(withProblemErrors(stream$, this.log), respond);
  }

  private handleDelivery(delivery: QueueDelivery<InProcessRpcRequest>, listening: { open: boolean }): void {
    const request = delivery.body;
    // A server that was closed mid-request cannot answer any more: the request went back to the
    // queue and another server answers it, as over RabbitMQ when a consumer's channel closes.
    const respond = (packet: WritePacket) => {
      if (listening.open) request.reply(packet);
    };
    const handler = this.getHandlerByPattern(request.pattern);
    if (!handler) {
      this.log.warn(`No handler for RPC pattern ${request.pattern}`);
      delivery.nack(false);
      respond({ err: NO_MESSAGE_HANDLER, isDisposed: true });
      return;
    }
    const context = new InProcessRpcContext([request.headers, request.pattern]);
    this.deliveries.set(context, delivery);
    this.handleRequest(context, async () => this.transformToObservable(await handler(request.data, context)), respond);
  }
}

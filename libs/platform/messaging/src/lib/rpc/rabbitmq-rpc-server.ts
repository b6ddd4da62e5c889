import { Logger } from '@nestjs/common';
import { BaseRpcContext, RmqContext, RmqOptions, ServerRMQ, WritePacket } from '@nestjs/microservices';
import { amqpConsumerUp, CORRELATION_HEADER, CorrelationContext, DEADLINE_HEADER, parseDeadlineHeader } from '@lp/platform/observability';
import type { Channel } from 'amqplib';
import { Observable, Subscription } from 'rxjs';
import { answeringFailures, withProblemErrors } from './rpc-server-errors';
import { timedRespond } from './rpc-server-metrics';
import { callerGaveUp, handleWithinDeadline } from './rpc-server-deadline';
import { isPlainPatternName } from './rpc-pattern-route';
import { handleInServerSpan } from './rpc-server-tracing';

export type RabbitMqRpcServerOptions = Required<RmqOptions>['options'];

function headersOf(context: BaseRpcContext): Record<string, unknown> | undefined {
  if (!(context instanceof RmqContext)) return undefined;
  return (context.getMessage() as { properties?: { headers?: Record<string, unknown> } }).properties?.headers;
}

function correlationIdOf(context: BaseRpcContext): string | undefined {
  const value = headersOf(context)?.[CORRELATION_HEADER];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Nest's RMQ server with the fleet's conventions built into the transport, where they hold for
 * every handler whatever filters and guards an app registers:
 * - the caller's correlation id is restored before anything runs, guards included (guards run
 *   before interceptors, and the authorization guard makes its own RPC call);
 * - with manual acknowledgement (`noAck: false`) a request is acked once its handling settled,
 *   success or failure, so a request is redelivered to another instance only when this one died
 *   before answering, and a denied request cannot hold a prefetch slot forever;
 * - every failure is answered with a problem object;
 * - a request whose caller has given up (its `x-deadline` passed) is acked and dropped unexecuted,
 *   and the others run within their deadline (`callerGaveUp`, `handleWithinDeadline`);
 * - every request is timed per pattern and outcome (`timedRespond`), and runs in a server span
 *   continuing its caller's trace (`handleInServerSpan`, while tracing records).
 */
export class RabbitMqRpcServer extends ServerRMQ {
  private readonly log = new Logger(RabbitMqRpcServer.name);

  constructor(
    options: RabbitMqRpcServerOptions,
    /** The `service` label of the request metrics. */
    private readonly service: string,
  ) {
    super(options);
    // The consumer goes with the connection; the channel's setup (on reconnection) brings it back.
    this.statusSubscription = this.status.subscribe((status) => {
      // RmqStatus.DISCONNECTED (a const enum, which isolated modules cannot read).
      if (status === 'disconnected' && !this.closing) amqpConsumerUp.set(this.up, 0);
    });
  }

  /** `amqp_consumer_up`'s labels for this server's request queue. */
  private get up() {
    return { service: this.service, consumer: 'rpc' };
  }
  private readonly statusSubscription: Subscription;
  private closing = false;

  override async setupChannel(channel: Channel, callback: () => void): Promise<void> {
    await super.setupChannel(channel, callback);
    amqpConsumerUp.set(this.up, 1);
  }

  /** A null message is the broker cancelling the consumer (queue deleted, quorum leader lost): nothing restarts it by itself. */
  override async handleMessage(message: Record<string, unknown> | null, channel: unknown): Promise<void> {
    if (message === null && !this.closing) {
      amqpConsumerUp.set(this.up, 0);
      this.log.error(`RabbitMQ cancelled the RPC consumer of ${this.service}: no requests are taken until it reconnects or restarts`);
      return;
    }
    return super.handleMessage(message as Record<string, unknown>, channel);
  }

  /** Plain pattern names route as themselves, without Nest's failing JSON.parse per message. */
  protected override getRouteFromPattern(pattern: string): string {
    return isPlainPatternName(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }

  protected override runWithProcessingHooks(context: BaseRpcContext, fn: (runEndHook: () => void) => Promise<void>, endHookContext?: BaseRpcContext): void {
    return CorrelationContext.run(correlationIdOf(context), () => super.runWithProcessingHooks(context, fn, endHookContext));
  }

  protected override createProcessingEndHookRunner(context: BaseRpcContext): () => void {
    const runEndHook = super.createProcessingEndHookRunner(context);
    let settled = false;
    return () => {
      runEndHook();
      if (settled) return;
      settled = true;
      this.acknowledge(context);
    };
  }

  protected override handleRequest(
    context: BaseRpcContext,
    produce: () => Promise<Observable<unknown>>,
    respond: (data: WritePacket) => Promise<unknown> | void,
  ): void {
    const pattern = context instanceof RmqContext ? context.getPattern() : 'unknown';
    const headers = headersOf(context);
    const deadlineAt = parseDeadlineHeader(headers?.[DEADLINE_HEADER]);
    if (callerGaveUp(this.service, pattern, deadlineAt)) return this.acknowledge(context);
    handleInServerSpan(this.service, pattern, 'rabbitmq', headers, timedRespond(this.service, pattern, respond), (traced) =>
      handleWithinDeadline(deadlineAt, traced, (answer) => super.handleRequest(context, answeringFailures(produce, this.log), answer)),
    );
  }

  override send(stream$: Observable<unknown>, respond: (data: WritePacket) => Promise<unknown> | void): Subscription {
    return super.send(withProblemErrors(stream$, this.log), respond);
  }

  /**
   * Nest's version drops the promise of `sendToQueue`: a reply still waiting for its publisher
   * confirm when the channel closes (shutdown right after answering) then rejects unhandled. The
   * caller has its answer or times out either way, so the failure is only logged.
   */
  override sendMessage<T = unknown>(message: T, replyTo: unknown, correlationId: string, _context: RmqContext): void {
    const outgoing = this.serializer.serialize(message as Parameters<typeof this.serializer.serialize>[0]) as { options?: Record<string, unknown> };
    const { options, ...body } = outgoing;
    const sent = this.channel?.sendToQueue(replyTo as string, Buffer.from(JSON.stringify(body)), { correlationId, ...options });
    Promise.resolve(sent).catch((error: unknown) =>
      this.log.warn(`RPC reply not confirmed: ${error instanceof Error ? error.message : String(error)} (correlationId ${correlationId})`),
    );
  }

  /**
   * Nest's close awaits the channel's close, which amqplib rejects with "Channel closed" when the
   * channel is already gone (the connection dropped, or the broker closed it). At shutdown that is
   * the wanted state, so it must not fail the application's close or leave the connection open.
   */
  override async close(): Promise<void> {
    this.closing = true;
    this.statusSubscription.unsubscribe();
    amqpConsumerUp.remove(this.up);
    try {
      await this.channel?.close();
    } catch (error) {
      this.log.debug(`RPC channel already closed at shutdown: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.channel = null;
    await this.server?.close();
    this.server = null;
    this.pendingEventListeners = [];
  }

  private acknowledge(context: BaseRpcContext): void {
    if (this.noAck || !(context instanceof RmqContext)) return;
    try {
      (context.getChannelRef() as { ack(message: unknown): void }).ack(context.getMessage());
    } catch {
      // The channel closed under us (shutdown, broker restart): the broker requeues the request.
    }
  }
}

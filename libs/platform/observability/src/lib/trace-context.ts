import {
  type Attributes,
  context,
  type Context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';

/** The W3C Trace Context header, on HTTP requests, AMQP messages and outbox rows alike. */
export const TRACEPARENT_HEADER = 'traceparent';

/** What the SDK start hands the API side: whether spans are recorded, and how to flush them at exit. */
interface TracingState {
  started: boolean;
  shutdown?: () => Promise<void>;
}

const state: TracingState = { started: false };

/** Header tables as the transports hand them: AMQP values may arrive as Buffers. */
type Carrier = Record<string, unknown>;

const carrierGetter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    if (Buffer.isBuffer(value)) return value.toString();
    return undefined;
  },
};

const tracer = () => trace.getTracer('@lp/platform');

/** An Error, or a problem object (`{ code, detail }`, an RPC error answer). */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'code' in error) return String((error as { code: unknown }).code);
  return String(error);
}

function endWith(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
  span.end();
}

export interface SpanOptions {
  kind: SpanKind;
  attributes?: Attributes;
  /**
   * The remote parent: the headers of the message being handled (`traceparent`). When given, the
   * span continues that trace whatever the ambient context is (a transport callback may run in the
   * publisher's context, on the in-process broker); without a `traceparent` in them, a new trace.
   * Omitted: a child of the active span.
   */
  parent?: Carrier | null;
}

/**
 * The fleet's own spans (RPC client and server, event publish and consume, webhook deliveries) and
 * the Trace Context they carry, through `@opentelemetry/api` only. Until the SDK starts
 * (`@lp/platform/observability/tracing`, only with `OTEL_EXPORTER_OTLP_ENDPOINT` set) every call
 * is a flag test: no span object, no header, no context switch, so the embedded profile and the
 * tests pay nothing for it.
 */
export const Tracing = {
  get enabled(): boolean {
    return state.started;
  },

  /** Called once by the SDK start. */
  started(shutdown: () => Promise<void>): void {
    state.started = true;
    state.shutdown = shutdown;
  },

  /** Exports what is buffered and stops the SDK (the process is about to exit). */
  async shutdown(): Promise<void> {
    const shutdown = state.shutdown;
    state.started = false;
    state.shutdown = undefined;
    await shutdown?.();
  },

  /** Writes the active span's `traceparent` (and `tracestate`) into outgoing headers. */
  inject(headers: Record<string, unknown>): void {
    if (state.started) propagation.inject(context.active(), headers);
  },

  /** The `traceparent` of the active span (or of `of`), to store with an outbox row or a webhook delivery. */
  traceparent(of: Context = context.active()): string | null {
    if (!state.started || !trace.getSpan(of)) return null;
    const carrier: Record<string, string> = {};
    propagation.inject(of, carrier);
    return carrier[TRACEPARENT_HEADER] ?? null;
  },

  /** The ids log lines carry (`trace_id`, `span_id`), while a span is active. */
  logFields(): { trace_id: string; span_id: string } | undefined {
    if (!state.started) return undefined;
    const spanContext = trace.getSpan(context.active())?.spanContext();
    return spanContext && trace.isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : undefined;
  },

  /** The active trace's id (32 hex digits), if any: the correlation id of a request that brought none. */
  traceId(): string | undefined {
    return Tracing.logFields()?.trace_id;
  },

  /** Runs `fn` with a stored `traceparent` (an outbox row's, a delivery's) as the active context. */
  withParent<T>(traceparent: string | null | undefined, fn: () => T): T {
    if (!state.started || !traceparent) return fn();
    return context.with(propagation.extract(ROOT_CONTEXT, { [TRACEPARENT_HEADER]: traceparent }, carrierGetter), fn);
  },

  /**
   * Runs `fn` inside a new span, ended when `fn` settles (an error marks it failed and is rethrown).
   * `fn` gets the span (undefined while tracing is off) to add what it learns.
   */
  async run<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
    const started = Tracing.start(name, options);
    if (!started) return fn(undefined);
    const { span, context: spanContext } = started;
    try {
      const result = await context.with(spanContext, () => fn(span));
      span.end();
      return result;
    } catch (error) {
      endWith(span, error);
      throw error;
    }
  },

  /**
   * Runs `fn` inside a new span whose end `fn` decides (an RPC server span ends with its last reply
   * packet): `end()` for success, `end(error)` for a failure; only the first call counts.
   */
  within<T>(name: string, options: SpanOptions, fn: (end: (error?: unknown) => void) => T): T {
    const started = Tracing.start(name, options);
    if (!started) return fn(() => undefined);
    let ended = false;
    const end = (error?: unknown) => {
      if (ended) return;
      ended = true;
      if (error === undefined || error === null) started.span.end();
      else endWith(started.span, error);
    };
    return context.with(started.context, () => fn(end));
  },

  /** A span and the context to run its work in; undefined while tracing is off. */
  start(name: string, options: SpanOptions): { span: Span; context: Context } | undefined {
    if (!state.started) return undefined;
    const parent = options.parent === undefined ? context.active() : propagation.extract(ROOT_CONTEXT, options.parent ?? {}, carrierGetter);
    const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
    return { span, context: trace.setSpan(parent, span) };
  },
};

export { SpanKind };

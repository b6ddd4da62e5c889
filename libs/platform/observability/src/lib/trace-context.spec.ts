import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { SpanKind, Tracing } from './trace-context';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('Tracing while the SDK is not started (the default)', () => {
  it('records nothing and writes no header: every call is a pass-through', async () => {
    expect(Tracing.enabled).toBe(false);
    const headers: Record<string, unknown> = {};
    Tracing.inject(headers);
    expect(headers).toEqual({});
    expect(Tracing.traceparent()).toBeNull();
    expect(Tracing.logFields()).toBeUndefined();
    expect(Tracing.start('x', { kind: SpanKind.INTERNAL })).toBeUndefined();
    await expect(Tracing.run('x', { kind: SpanKind.CLIENT }, async (span) => span)).resolves.toBeUndefined();
    expect(Tracing.withParent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', () => trace.getActiveSpan())).toBeUndefined();
  });
});

describe('Tracing with the SDK started', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    Tracing.started(() => provider.shutdown());
  });
  afterAll(async () => {
    await Tracing.shutdown();
    expect(Tracing.enabled).toBe(false);
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  const finished = (name: string) => {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no finished span ${name}`);
    return span;
  };

  it("a client span's headers carry it, and a server span given those headers is its child in the same trace", async () => {
    const headers: Record<string, unknown> = {};
    await Tracing.run('cases.create', { kind: SpanKind.CLIENT }, async () => Tracing.inject(headers));
    const [, traceId, spanId] = TRACEPARENT.exec(String(headers['traceparent'])) ?? [];
    expect(finished('cases.create').spanContext()).toMatchObject({ traceId, spanId });

    // AMQP header tables may hand the value back as a Buffer.
    const served = Tracing.within(
      'cases.create (server)',
      { kind: SpanKind.SERVER, parent: { traceparent: Buffer.from(String(headers['traceparent'])) } },
      (end) => {
        const ids = Tracing.logFields();
        end();
        return ids;
      },
    );
    const server = finished('cases.create (server)');
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe(spanId);
    expect(served).toEqual({ trace_id: traceId, span_id: server.spanContext().spanId });
  });

  it('headers without a traceparent start a new trace, whatever span is active (a transport callback may run in the publisher’s context)', async () => {
    await Tracing.run('outer', { kind: SpanKind.INTERNAL }, async () => Tracing.run('consume', { kind: SpanKind.CONSUMER, parent: {} }, async () => undefined));
    expect(finished('consume').parentSpanContext).toBeUndefined();
    expect(finished('consume').spanContext().traceId).not.toBe(finished('outer').spanContext().traceId);
  });

  it("a stored traceparent (an outbox row's) becomes the parent of what runs under withParent", async () => {
    const stored = Tracing.withParent(null, () =>
      Tracing.within('write', { kind: SpanKind.PRODUCER }, (end) => {
        end();
        return Tracing.traceparent();
      }),
    );
    expect(stored).toMatch(TRACEPARENT);
    await Tracing.withParent(stored, () => Tracing.run('relay publish', { kind: SpanKind.PRODUCER }, async () => undefined));
    expect(`00-${finished('relay publish').spanContext().traceId}-${finished('relay publish').parentSpanContext?.spanId}-01`).toBe(stored);
  });

  it('a failure ends the span as an error and reaches the caller; an error answer (a problem object) too', async () => {
    await expect(
      Tracing.run('fails', { kind: SpanKind.INTERNAL }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(finished('fails').status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });

    Tracing.within('denied', { kind: SpanKind.SERVER }, (end) => {
      end({ code: 'Authorization.Denied', status: 403 });
      end(); // only the first end counts
    });
    expect(exporter.getFinishedSpans().filter((s) => s.name === 'denied')).toHaveLength(1);
    expect(finished('denied').status).toEqual({ code: SpanStatusCode.ERROR, message: 'Authorization.Denied' });
  });
});

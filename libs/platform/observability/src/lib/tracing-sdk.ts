import { basename, dirname } from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { PROBE_PATHS } from './readiness';
import { Tracing } from './trace-context';

/** Paths never traced: probes and scrapes every few seconds would bury the requests. */
const UNTRACED_PATHS: readonly string[] = PROBE_PATHS;

/**
 * The service a process runs, for `service.name`: `OTEL_SERVICE_NAME` when set, else the app whose
 * `apps/<name>/src/main.ts` started it (tools/run.mjs and the image's entry point both run that file).
 */
export function tracedServiceName(env: NodeJS.ProcessEnv, mainFile: string | undefined): string {
  if (env['OTEL_SERVICE_NAME']) return env['OTEL_SERVICE_NAME'];
  if (mainFile && basename(mainFile).startsWith('main.')) return basename(dirname(dirname(mainFile)));
  return 'legal-platform';
}

/** The instrumentations by the names `OTEL_NODE_ENABLED_INSTRUMENTATIONS` / `OTEL_NODE_DISABLED_INSTRUMENTATIONS` use. */
const INSTRUMENTATIONS = {
  http: () => new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.some((path) => req.url?.startsWith(path)) }),
  // Names the HTTP span by its route (`GET /api/cases/{id}`); no span per layer: a span per
  // middleware (body parser, correlation, admission) or per handler costs more than it tells.
  express: () => new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER, ExpressLayerType.REQUEST_HANDLER] }),
  // A span per statement; none for taking a pooled connection (one more span per query, little to tell).
  pg: () => new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
  // The command's name only: keys carry tenant and subject ids, values cached decisions.
  ioredis: () => new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
};

type InstrumentationName = keyof typeof INSTRUMENTATIONS;

const namesIn = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * Every instrumentation, less those `OTEL_NODE_DISABLED_INSTRUMENTATIONS` names, or only those
 * `OTEL_NODE_ENABLED_INSTRUMENTATIONS` names (the variables of the Node auto-instrumentations,
 * with their short names: `http`, `express`, `pg`, `ioredis`). The fleet's own spans (RPC, events,
 * webhooks) are not instrumentations: they follow the endpoint alone.
 */
export function selectedInstrumentations(env: NodeJS.ProcessEnv): InstrumentationName[] {
  const all = Object.keys(INSTRUMENTATIONS) as InstrumentationName[];
  const enabled = namesIn(env['OTEL_NODE_ENABLED_INSTRUMENTATIONS']);
  const disabled = new Set(namesIn(env['OTEL_NODE_DISABLED_INSTRUMENTATIONS']));
  return all.filter((name) => (enabled.length === 0 || enabled.includes(name)) && !disabled.has(name));
}

function instrumentations(env: NodeJS.ProcessEnv) {
  return selectedInstrumentations(env).map((name) => INSTRUMENTATIONS[name]());
}

function sampler(env: NodeJS.ProcessEnv): ParentBasedSampler {
  const ratio = Number(env['OTEL_TRACES_SAMPLER_ARG']);
  // A caller's sampling decision is kept; a trace started here is sampled at the ratio (default all).
  return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1) });
}

/**
 * Starts the OpenTelemetry trace SDK: the AsyncLocalStorage context manager, the W3C Trace Context
 * propagator, an OTLP/HTTP (JSON) exporter to `OTEL_EXPORTER_OTLP_ENDPOINT` behind a batch
 * processor, and the http, express, pg and ioredis instrumentations. Must run before those modules
 * are first required, which is why each `main.ts` imports `@lp/platform/observability/tracing`
 * first. pg and ioredis spans need a parent: the background loops' polls are not traces.
 */
export function startTracingSdk(env: NodeJS.ProcessEnv, serviceName: string): void {
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const delay = Number(env['OTEL_BSP_SCHEDULE_DELAY']);
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': serviceName })),
    sampler: sampler(env),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...(delay > 0 && { scheduledDelayMillis: delay }) })],
  });
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({ tracerProvider: provider, instrumentations: instrumentations(env) });
  Tracing.started(() => provider.shutdown());
}

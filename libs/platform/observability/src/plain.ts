/**
 * `@lp/platform/observability/plain`: the correlation id, the metrics registry and the trace context helpers (`@opentelemetry/api` only), without Nest or
 * the logger, for a process that loads neither (the console's app, `@lp/platform/runtime/console`).
 */
export * from './lib/correlation';
export * from './lib/metrics';
export * from './lib/trace-context';

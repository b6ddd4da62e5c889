/**
 * `@lp/platform/observability/plain`: the correlation id and the metrics registry, without Nest or
 * the logger, for a process that loads neither (the console's app, `@lp/platform/runtime/console`).
 */
export * from './lib/correlation';
export * from './lib/metrics';

/**
 * `import '@lp/platform/observability/tracing'` first thing in a `main.ts`: starts OpenTelemetry
 * tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, before
 * the modules it instruments (http, express, pg, ioredis) are loaded. Unset (the default, the
 * embedded profile), it loads nothing and starts nothing. `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none` turn it off with the endpoint set.
 */
const env = process.env;
const requested = Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
if (requested && env['OTEL_SDK_DISABLED'] !== 'true' && env['OTEL_TRACES_EXPORTER'] !== 'none') {
  // Required here rather than imported, so a process without an endpoint never loads the SDK.
  const sdk = require('./lib/tracing-sdk') as typeof import('./lib/tracing-sdk');
  sdk.startTracingSdk(env, sdk.tracedServiceName(env, require.main?.filename));
}

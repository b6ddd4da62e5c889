export * from './lib/correlation';
export * from './lib/correlation.middleware';
export * from './lib/metrics';
export * from './lib/http-metrics.interceptor';
export * from './lib/readiness';
export * from './lib/logging';

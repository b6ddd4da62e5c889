export * from './lib/correlation';
export * from './lib/correlation.middleware';
export * from './lib/metrics';
export * from './lib/request-metrics';
export * from './lib/readiness';
export * from './lib/logging';

export * from './lib/correlation';
export * from './lib/correlation.middleware';
export * from './lib/metrics';
export * from './lib/request-metrics';
export * from './lib/readiness';
export * from './lib/logging';
export * from './lib/request-deadline';
export * from './lib/request-deadline.middleware';

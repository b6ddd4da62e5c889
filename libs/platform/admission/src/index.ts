export * from './lib/concurrency-limit';
export * from './lib/gradient-limit';
export * from './lib/admission-controller';
export * from './lib/admission-metrics';
export * from './lib/http-admission';
export * from './lib/process-admission';

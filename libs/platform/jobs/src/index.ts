export * from './lib/job-declaration';
export * from './lib/job-handler';
export * from './lib/job-dispatcher';
export * from './lib/service-jobs';
export * from './lib/job-closure';

export * from './operations.service-definition';
export { JobCatalogSync } from './jobs/job-catalog-sync';
export { JobScheduler } from './jobs/job-scheduler';
export { OperationsJobs } from './jobs/operations.jobs';

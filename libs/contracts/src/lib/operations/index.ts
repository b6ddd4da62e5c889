export * from './job-catalog';
export * from './fleet-services';
export * from './service-rpc';
export * from './diagnostics';
export * from './operations-rpc';
export * from './cron-rule';

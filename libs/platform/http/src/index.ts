export * from './lib/domain-error';
export * from './lib/problem-details';
export * from './lib/problem-details.filter';
export * from './lib/validation.pipe';
export * from './lib/paging';
export * from './lib/request-timeout';
export * from './lib/user-policy-throttler';
export * from './lib/time-window';

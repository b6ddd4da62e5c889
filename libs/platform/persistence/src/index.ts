export * from './lib/service-data-source';
export * from './lib/embedded-postgres';
export * from './lib/postgres-errors';
export * from './lib/retention';
export * from './lib/like-pattern';

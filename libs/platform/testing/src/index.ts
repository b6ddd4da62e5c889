export * from './lib/servers';
export * from './lib/tcp-outage-proxy';
export * from './lib/private-redis-server';
export * from './lib/redis-keys';
export * from './lib/broker-objects';
export * from './lib/test-run-resources';
export * from './lib/test-database';
export * from './lib/eventually';

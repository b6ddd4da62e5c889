export * from './lib/servers';
export * from './lib/tcp-outage-proxy';
export * from './lib/redis-keys';

export * from './lib/key-value-cache';
export * from './lib/revision-counters';
export * from './lib/in-memory-key-value-cache';
export * from './lib/in-memory-revision-counters';
export type { RedisAdapterOptions } from './lib/redis-connection';
export * from './lib/redis-key-value-cache';
export * from './lib/redis-revision-counters';
export * from './lib/cache-adapters';
export * from './lib/cache-unavailable.error';

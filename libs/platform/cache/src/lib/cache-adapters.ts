import { InMemoryKeyValueCache } from './in-memory-key-value-cache';
import { InMemoryRevisionCounters } from './in-memory-revision-counters';
import type { KeyValueCache } from './key-value-cache';
import { RedisKeyValueCache } from './redis-key-value-cache';
import { RedisRevisionCounters } from './redis-revision-counters';
import type { RevisionCounters } from './revision-counters';

export interface CacheAdaptersOptions {
  /** Set (non-blank): Redis, the production profile. Unset: in-process LRU, the embedded default. */
  redisUrl?: string;
  /** Namespace of every Redis key, e.g. `lp:authz-decision`. Ignored in memory, where each instance is its own space. */
  keyPrefix: string;
  /** In-memory profile: most cache entries kept. */
  maxEntries?: number;
  /** Redis: longest one call may take (see `RedisAdapterOptions.commandTimeoutMs`). */
  commandTimeoutMs?: number;
}

export interface CacheAdapters {
  readonly cache: KeyValueCache;
  readonly revisions: RevisionCounters;
  /** Closes both adapters' connections (call it on application shutdown). */
  close(): Promise<void>;
}

/** Picks the cache adapters for the runtime profile (ARCHITECTURE.md, Runtime profiles). */
export function createCacheAdapters(options: CacheAdaptersOptions): CacheAdapters {
  if (options.redisUrl?.trim()) {
    const redis = { url: options.redisUrl.trim(), keyPrefix: options.keyPrefix, commandTimeoutMs: options.commandTimeoutMs };
    const cache = new RedisKeyValueCache(redis);
    const revisions = new RedisRevisionCounters(redis);
    return {
      cache,
      revisions,
      close: async () => {
        await Promise.all([cache.close(), revisions.close()]);
      },
    };
  }
  const cache = new InMemoryKeyValueCache({ maxEntries: options.maxEntries });
  return { cache, revisions: new InMemoryRevisionCounters(), close: () => cache.close() };
}

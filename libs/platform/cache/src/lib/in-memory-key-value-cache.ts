import { LRUCache } from 'lru-cache';
import { effectiveTtlMs, serializeCacheValue } from './cache-entry-ttl';
import { KeyValueCache } from './key-value-cache';

export interface InMemoryKeyValueCacheOptions {
  /** Least recently used entries are dropped beyond this many. */
  maxEntries?: number;
}

/**
 * The embedded-profile cache (REDIS_URL unset): a per-process LRU. Entries are stored as JSON text,
 * like in Redis, so a caller mutating what it read cannot change the cache, and behaviour does not
 * differ between profiles.
 */
export class InMemoryKeyValueCache extends KeyValueCache {
  private readonly entries: LRUCache<string, string>;

  constructor({ maxEntries = 10_000 }: InMemoryKeyValueCacheOptions = {}) {
    super();
    // TTLs are per entry; lru-cache checks them lazily on read, so no timers keep the process alive.
    this.entries = new LRUCache<string, string>({ max: maxEntries });
  }

  async get<T>(key: string): Promise<T | undefined> {
    return parse<T>(this.entries.get(key));
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const text = serializeCacheValue(key, value);
    const ttl = effectiveTtlMs(ttlMs);
    if (ttl === undefined) this.entries.delete(key);
    else this.entries.set(key, text, { ttl });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async getMany<T>(keys: string[]): Promise<(T | undefined)[]> {
    return keys.map((key) => parse<T>(this.entries.get(key)));
  }

  async ping(): Promise<void> {
    // Always reachable: it is this process's memory.
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

function parse<T>(text: string | undefined): T | undefined {
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

import { Logger } from '@nestjs/common';
import { effectiveTtlMs, serializeCacheValue } from './cache-entry-ttl';
import { KeyValueCache } from './key-value-cache';
import { RedisConnection, redisNamespace, type RedisAdapterOptions } from './redis-connection';

/**
 * The production cache (REDIS_URL set), shared by every replica. Entries live under
 * `${keyPrefix}:kv:` as JSON text with a PX expiry. Owns its connection: `close()` ends it.
 */
export class RedisKeyValueCache extends KeyValueCache {
  private readonly logger = new Logger(RedisKeyValueCache.name);
  private readonly namespace: string;
  private readonly redis: RedisConnection;

  constructor(options: RedisAdapterOptions) {
    super();
    this.namespace = redisNamespace(options.keyPrefix, 'kv');
    this.redis = new RedisConnection(options, this.logger);
  }

  async get<T>(key: string): Promise<T | undefined> {
    return this.parse<T>(await this.redis.run((client) => client.get(this.namespace + key)));
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const text = serializeCacheValue(key, value);
    const ttl = effectiveTtlMs(ttlMs);
    if (ttl === undefined) await this.delete(key);
    else await this.redis.run((client) => client.set(this.namespace + key, text, 'PX', ttl));
  }

  async delete(key: string): Promise<void> {
    await this.redis.run((client) => client.del(this.namespace + key));
  }

  async getMany<T>(keys: string[]): Promise<(T | undefined)[]> {
    // MGET with no keys is a Redis syntax error.
    if (keys.length === 0) return [];
    const texts = await this.redis.run((client) => client.mget(keys.map((key) => this.namespace + key)));
    return texts.map((text) => this.parse<T>(text));
  }

  async ping(): Promise<void> {
    await this.redis.run((client) => client.ping());
  }

  async close(): Promise<void> {
    await this.redis.close();
  }

  private parse<T>(text: string | null): T | undefined {
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      // Only something other than this adapter can have written it; a miss makes the caller recompute.
      this.logger.warn('Ignoring a cache entry that is not JSON');
      return undefined;
    }
  }
}

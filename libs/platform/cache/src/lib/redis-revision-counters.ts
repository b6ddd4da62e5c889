import { Logger } from '@nestjs/common';
import { RedisConnection, redisNamespace, type RedisAdapterOptions } from './redis-connection';
import { RevisionCounters } from './revision-counters';

/**
 * The production revision counters, shared by every replica: `${keyPrefix}:rev:${name}`, INCR to
 * bump, one MGET to read many. Counters carry no TTL, so under a `noeviction` or `volatile-*`
 * maxmemory policy Redis never drops one (an `allkeys-*` policy could, letting it read 0 again
 * while entries keyed with old values are still alive until their TTL). Owns its connection.
 */
export class RedisRevisionCounters extends RevisionCounters {
  private readonly logger = new Logger(RedisRevisionCounters.name);
  private readonly namespace: string;
  private readonly redis: RedisConnection;

  constructor(options: RedisAdapterOptions) {
    super();
    this.namespace = redisNamespace(options.keyPrefix, 'rev');
    this.redis = new RedisConnection(options, this.logger);
  }

  async read(names: string[]): Promise<number[]> {
    if (names.length === 0) return [];
    const values = await this.redis.run((client) => client.mget(names.map((name) => this.namespace + name)));
    return values.map((value) => (value === null ? 0 : Number(value)));
  }

  async bump(name: string): Promise<number> {
    return this.redis.run((client) => client.incr(this.namespace + name));
  }

  async close(): Promise<void> {
    await this.redis.close();
  }
}

import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { RedisConnection, redisNamespace, type RedisAdapterOptions } from '@lp/platform/cache';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The userPolicy counters when REDIS_URL is set: kept in Redis under `${keyPrefix}:throttle:`, so
 * the limit is per caller across every replica of a service, not per replica (with N replicas
 * behind the gateway, in-memory counters would let a caller make N times the limit).
 *
 * The counting is `@nest-lab/throttler-storage-redis` (one Lua script per request: INCR with the
 * window's expiry, and the block). While Redis is unreachable, requests are counted in this
 * instance's memory instead: the limit still holds per replica, and a write route never fails
 * because its limiter's store is down. One warning per outage, one line when shared counting is
 * back.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger(RedisThrottlerStorage.name);
  private readonly connection: RedisConnection;
  private readonly shared: ThrottlerStorageRedisService;
  private readonly local = new ThrottlerStorageService();
  private countingLocally = false;

  constructor(options: RedisAdapterOptions) {
    this.connection = new RedisConnection(options, this.logger, redisNamespace(options.keyPrefix, 'throttle'));
    this.shared = new ThrottlerStorageRedisService(this.connection.client);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    try {
      const record = await this.connection.run(() => this.shared.increment(key, ttl, limit, blockDuration, throttlerName));
      if (this.countingLocally) {
        this.countingLocally = false;
        this.logger.log('userPolicy counted in Redis again');
      }
      return record;
    } catch (error) {
      if (!this.countingLocally) {
        this.countingLocally = true;
        this.logger.warn(`userPolicy counted per instance while Redis is unavailable: ${error instanceof Error ? error.message : String(error)}`);
      }
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.local.onApplicationShutdown();
    await this.connection.close();
  }
}

import type { Logger } from '@nestjs/common';
import Redis, { ReplyError } from 'ioredis';
import { cacheBreakerOpen } from '@lp/platform/observability';
import { CacheUnavailableError } from './cache-unavailable.error';
import { CircuitBreaker } from './circuit-breaker';

export interface RedisAdapterOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` for TLS. */
  url: string;
  /** Every key the adapter writes starts with `${keyPrefix}:` (one colon even if the prefix ends with one), so services and test runs never collide. */
  keyPrefix: string;
  /**
   * Longest any one call may take, queued or sent, before it rejects. Default 100 ms: Redis is a
   * cache here, and every caller has the source of truth to fall back on, so a slow answer is worth
   * less than an immediate miss.
   */
  commandTimeoutMs?: number;
  /** Failures in a row that make calls fail fast (without waiting for Redis) for `breakerOpenMs`. Default 3 / 1000 ms. */
  breakerFailureThreshold?: number;
  breakerOpenMs?: number;
  /** Longest a connection attempt may take before it counts as failed and is retried. Default 2000 ms. */
  connectTimeoutMs?: number;
}

/**
 * One adapter's ioredis client, tuned so a Redis outage surfaces as errors, not hangs: callers on
 * the decision path fail closed, and they can only do so if the call comes back.
 *
 * - Reconnection follows ioredis' default backoff (50 ms steps up to 2 s), forever: Redis coming
 *   back needs no restart.
 * - While the connection is known to be down (closed and not ready again), calls fail at once
 *   with `CacheUnavailableError` instead of queueing behind reconnection attempts.
 * - Before the first connection is up, ioredis' offline queue holds calls so a service does not
 *   fail its first requests for nothing; `maxRetriesPerRequest: 1` flushes them with an error
 *   after two failed attempts, and `commandTimeout` bounds every call, also one sent to a server
 *   that accepts connections but never answers.
 * - A circuit breaker: after a few failures in a row (timeouts of a stalled server included),
 *   calls fail at once for a second, then one probe call tries again. During a stall (`CLIENT
 *   PAUSE`, a saturated server) only a handful of calls wait out the timeout.
 */
export class RedisConnection {
  readonly client: Redis;
  private down = false;
  private closing = false;
  private lastError = 'connection closed';
  private readonly breaker: CircuitBreaker;
  private breakerOpen = false;
  /** Whether this connection is counted in `cache_breaker_open_connections` (breaker open or connection down). */
  private counted = false;

  /**
   * @param clientKeyPrefix ioredis' own `keyPrefix`, for a client whose commands are written by a
   * library that takes keys unprefixed (the throttler storage): ioredis prefixes every key
   * argument, those of EVAL included.
   */
  constructor(options: RedisAdapterOptions, logger: Logger, clientKeyPrefix?: string) {
    this.client = new Redis(options.url, {
      ...(clientKeyPrefix !== undefined ? { keyPrefix: clientKeyPrefix } : {}),
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      commandTimeout: options.commandTimeoutMs ?? 100,
      connectTimeout: options.connectTimeoutMs ?? 2000,
      // ioredis keeps a timer this long after disconnect() even when the socket is already gone,
      // which would hold the process (and Jest) open after close().
      disconnectTimeout: 100,
    });
    // One log line per outage and per recovery, not one per reconnection attempt. The URL is
    // never logged: it may carry a password.
    this.client.on('error', (error: Error) => {
      this.lastError = error.message || error.name;
    });
    this.client.on('close', () => {
      if (this.down || this.closing) return;
      this.down = true;
      this.countFailingFast();
      logger.warn(`Redis unavailable, calls fail until it is back: ${this.lastError}`);
    });
    this.breaker = new CircuitBreaker({
      failureThreshold: options.breakerFailureThreshold ?? 3,
      openMs: options.breakerOpenMs ?? 1000,
      // A PING tests Redis while it is failing, so no caller's command waits on it.
      probe: () => this.client.ping(),
      onChange: (state, reason) => {
        this.breakerOpen = state === 'open';
        this.countFailingFast();
        if (state === 'open') {
          logger.warn(`Redis too slow or failing (${reason}): calls fail fast, callers use their fallback, until a probe succeeds`);
        } else {
          logger.log('Redis answers in time again');
        }
      },
    });
    this.client.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      this.countFailingFast();
      logger.log('Redis available again');
    });
  }

  /** Keeps `cache_breaker_open_connections` in step: this connection counts while its calls fail fast, until it is closed. */
  private countFailingFast(): void {
    const failingFast = !this.closing && (this.down || this.breakerOpen);
    if (failingFast !== this.counted) cacheBreakerOpen.inc(failingFast ? 1 : -1);
    this.counted = failingFast;
  }

  /** Runs a call on the client, or fails at once while the connection is down. */
  async run<T>(call: (client: Redis) => Promise<T>): Promise<T> {
    if (this.down) throw new CacheUnavailableError(`Redis: ${this.lastError}`);
    try {
      return await this.breaker.run(() => call(this.client));
    } catch (error) {
      // Redis answered with an error: the call itself is wrong, and says so.
      if (error instanceof ReplyError) throw error;
      // No answer (a command timeout, a closed connection, the breaker open): the cache is
      // unavailable, which callers treat as such (a 503, or the source of truth), never as a 500.
      throw new CacheUnavailableError(`Redis: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Quits politely when connected; otherwise drops the socket and stops reconnecting at once. */
  async close(): Promise<void> {
    this.closing = true;
    this.countFailingFast();
    if (this.client.status === 'end') return;
    if (this.client.status === 'ready') {
      try {
        await this.client.quit();
        return;
      } catch {
        // Fall through: the connection broke while quitting.
      }
    }
    this.client.disconnect();
  }
}

/**
 * `${keyPrefix}:${namespace}:` (`lp:` and `lp` both give `lp:kv:`), refusing an empty prefix that
 * would write into the shared key space.
 */
export function redisNamespace(keyPrefix: string, namespace: string): string {
  if (!keyPrefix.trim()) throw new TypeError('A Redis adapter needs a non-empty keyPrefix');
  return `${keyPrefix.endsWith(':') ? keyPrefix : `${keyPrefix}:`}${namespace}:`;
}

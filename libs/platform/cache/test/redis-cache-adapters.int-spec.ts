import { Logger } from '@nestjs/common';
import { describeWithServers, scanRedisKeys, TcpOutageProxy, testRunId, testServerUrls } from '@lp/platform/testing';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCacheAdapters, type CacheAdapters } from '../src/lib/cache-adapters';
import { CacheUnavailableError } from '../src/lib/cache-unavailable.error';
import { cacheAdaptersContract } from './cache-adapters.contract';

// The contract and layout specs test what the adapters answer, not how fast: a command timeout of the
// production 100 ms fails them whenever the machine is busy with the rest of the suite. The outage
// specs below keep the production timeout, which is what they test.
const SEMANTICS_TIMEOUT_MS = 5_000;

describeWithServers(['redis'], 'Redis cache adapters', () => {
  const prefixes: string[] = [];
  const newPrefix = () => {
    const prefix = testRunId('cache');
    prefixes.push(prefix);
    return prefix;
  };
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(testServerUrls.redis, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await scanRedisKeys(redis, `${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  });

  describe('contract', () => {
    cacheAdaptersContract((keyPrefix) => createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix, commandTimeoutMs: SEMANTICS_TIMEOUT_MS }), newPrefix);
  });

  describe('storage layout', () => {
    let adapters: CacheAdapters;
    let prefix: string;

    beforeEach(() => {
      prefix = newPrefix();
      adapters = createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix: prefix, commandTimeoutMs: SEMANTICS_TIMEOUT_MS });
    });

    afterEach(() => adapters.close());

    it('is chosen for a Redis URL, under class names the adapter report reads as production', () => {
      expect(adapters.cache.constructor.name).toBe('RedisKeyValueCache');
      expect(adapters.revisions.constructor.name).toBe('RedisRevisionCounters');
    });

    it("passes Redis' own error answers through as they are: a wrong call is not an unavailable cache", async () => {
      await redis.set(`${prefix}:rev:broken`, 'not-a-number');
      const failure = await adapters.revisions.bump('broken').catch((error: unknown) => error);
      expect(failure).not.toBeInstanceOf(CacheUnavailableError);
      expect((failure as Error).message).toContain('not an integer');
    });

    it('writes every key under the prefix: entries as JSON with an expiry, counters as integers', async () => {
      await adapters.cache.set('decision:1', { effect: 'Permit' }, 60_000);
      await adapters.revisions.bump('tenant:t1');

      expect((await scanRedisKeys(redis, `${prefix}:*`)).sort()).toEqual([`${prefix}:kv:decision:1`, `${prefix}:rev:tenant:t1`]);
      expect(JSON.parse((await redis.get(`${prefix}:kv:decision:1`))!)).toEqual({ effect: 'Permit' });
      const ttl = await redis.pttl(`${prefix}:kv:decision:1`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await redis.get(`${prefix}:rev:tenant:t1`)).toBe('1');
      expect(await redis.pttl(`${prefix}:rev:tenant:t1`)).toBe(-1); // counters never expire
    });

    it('adds no second colon after a prefix ending in one', async () => {
      const colonPrefix = `${newPrefix()}:`;
      const colon = createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix: colonPrefix, commandTimeoutMs: SEMANTICS_TIMEOUT_MS });
      try {
        await colon.cache.set('k', 1, 60_000);
        expect(await redis.exists(`${colonPrefix}kv:k`)).toBe(1);
      } finally {
        await colon.close();
      }
    });

    it('reads a counter bumped by another replica', async () => {
      const replica = createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix: prefix, commandTimeoutMs: SEMANTICS_TIMEOUT_MS });
      try {
        await replica.revisions.bump('feature:global');
        expect((await adapters.revisions.read(['feature:global'])).values).toEqual([1]);
      } finally {
        await replica.close();
      }
    });

    it('answers reads asked together with one MGET, each in its own order, repeated names included', async () => {
      await adapters.revisions.bump('a');
      await adapters.revisions.bump('b');
      await adapters.revisions.bump('b');
      await adapters.revisions.read([]); // the first read of a key prefix creates its epoch
      const client = (adapters.revisions as unknown as { redis: { client: Redis } }).redis.client;
      const mget = jest.spyOn(client, 'mget');
      try {
        const answers = await Promise.all([
          adapters.revisions.read(['a', 'b']),
          adapters.revisions.read(['b', 'never-bumped', 'a']),
          adapters.revisions.read(['a', 'a']),
        ]);
        expect(answers.map((a) => a.values)).toEqual([
          [1, 2],
          [2, 0, 1],
          [1, 1],
        ]);
        expect(new Set(answers.map((a) => a.epoch)).size).toBe(1);
        expect(mget).toHaveBeenCalledTimes(1);
        expect((mget.mock.calls[0]![0] as unknown as string[]).length).toBe(4); // the epoch, then distinct names only
      } finally {
        mget.mockRestore();
      }
    });

    it('splits a burst of more reads than one MGET answers, and still answers each', async () => {
      await adapters.revisions.bump('burst');
      await adapters.revisions.read([]);
      const client = (adapters.revisions as unknown as { redis: { client: Redis } }).redis.client;
      const mget = jest.spyOn(client, 'mget');
      try {
        const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => adapters.revisions.read(['burst', `other-${i}`])));
        expect(answers.every(({ values: [burst, other] }) => burst === 1 && other === 0)).toBe(true);
        expect(mget).toHaveBeenCalledTimes(2); // 256 reads, then the other 44
      } finally {
        mget.mockRestore();
      }
    });

    it('never answers a read with a value older than a bump that completed before the read was asked', async () => {
      const replica = createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix: prefix, commandTimeoutMs: SEMANTICS_TIMEOUT_MS });
      try {
        for (let i = 1; i <= 20; i++) {
          const pending = adapters.revisions.read(['tenant:t1']); // queued for the next batch
          await replica.revisions.bump('tenant:t1');
          // Asked after the bump completed, and batched with the read asked before it.
          const [before, after] = await Promise.all([pending, adapters.revisions.read(['tenant:t1'])]);
          expect(after.values).toEqual([i]);
          expect(before.values[0]).toBeLessThanOrEqual(i);
        }
      } finally {
        await replica.close();
      }
    });

    it('reads anew for every batch: nothing is kept between reads', async () => {
      expect((await adapters.revisions.read(['x'])).values).toEqual([0]);
      await adapters.revisions.bump('x');
      expect((await adapters.revisions.read(['x'])).values).toEqual([1]);
    });
  });

  describe('outage', () => {
    let warn: jest.SpyInstance;
    let log: jest.SpyInstance;

    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    });

    afterEach(() => {
      warn.mockRestore();
      log.mockRestore();
    });

    it('fails calls while Redis is cut off, and serves again once it is back', async () => {
      const target = new URL(testServerUrls.redis);
      const proxy = new TcpOutageProxy({ host: target.hostname, port: Number(target.port || 6379) });
      await proxy.start();
      const url = new URL(testServerUrls.redis);
      url.host = proxy.url;
      const adapters = createCacheAdapters({ redisUrl: url.toString(), keyPrefix: newPrefix() });
      try {
        await adapters.cache.set('k', 'v', 60_000);
        await adapters.revisions.bump('r');

        await proxy.stop();
        // A call racing the drop fails on ioredis' own error, reported as the cache being unavailable
        // too (never a raw error a caller would answer with a 500); once the drop is seen, calls fail at once.
        await expect(adapters.cache.get('k')).rejects.toThrow(CacheUnavailableError);
        await expect(adapters.revisions.read(['r'])).rejects.toThrow(CacheUnavailableError);
        await expect(adapters.cache.get('k')).rejects.toThrow(CacheUnavailableError);
        await expect(adapters.revisions.bump('r')).rejects.toThrow(CacheUnavailableError);
        // Every read of a coalesced batch gets the failure.
        const batch = await Promise.allSettled([adapters.revisions.read(['r']), adapters.revisions.read(['r', 's'])]);
        expect(batch.map((b) => b.status === 'rejected' && b.reason instanceof CacheUnavailableError)).toEqual([true, true]);
        expect(warn).toHaveBeenCalledTimes(2);

        await proxy.start(); // the same port again
        expect(await eventually(() => adapters.cache.get('k'))).toBe('v');
        expect((await eventually(() => adapters.revisions.read(['r']))).values).toEqual([1]);
        expect(log).toHaveBeenCalledWith('Redis available again');
      } finally {
        await adapters.close();
        await proxy.stop().catch(() => undefined);
      }
    });
  });
});

/** Retries until the call succeeds: reconnection follows ioredis' backoff, up to 2 s between attempts. */
async function eventually<T>(call: () => Promise<T>, attempts = 50): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(200);
    }
  }
}

import { AuthorizationAction } from '@lp/contracts';
import { CacheAdapters, createCacheAdapters } from '@lp/platform/cache';
import { describeWithServers, scanRedisKeys, testRunId, testServerUrls } from '@lp/platform/testing';
import Redis from 'ioredis';
import { request, user } from './decision.fixtures';
import { DecisionCache } from '../src/cache/decision-cache';
import { decisionCacheContract, permit } from './decision-cache.contract';
import { decisionCacheKey } from '../src/cache/decision-cache-key';

describeWithServers(['redis'], 'DecisionCache over Redis', () => {
  const prefixes: string[] = [];
  const opened: CacheAdapters[] = [];
  let redis: Redis;

  function open(): CacheAdapters {
    const keyPrefix = testRunId('decision_cache');
    prefixes.push(keyPrefix);
    // What the cache answers, not how fast: the production 100 ms command timeout would fail these
    // whenever the rest of the suite keeps the machine busy.
    const adapters = createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix, commandTimeoutMs: 5_000 });
    opened.push(adapters);
    return adapters;
  }

  beforeAll(() => {
    redis = new Redis(testServerUrls.redis, { maxRetriesPerRequest: 1 });
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((a) => a.close()));
  });

  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await scanRedisKeys(redis, `${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  });

  decisionCacheContract(open);

  it('shares entries and revisions between replicas: a bump on one invalidates the other', async () => {
    const first = open();
    const prefix = prefixes[prefixes.length - 1]!;
    const second = createCacheAdapters({ redisUrl: testServerUrls.redis, keyPrefix: prefix });
    opened.push(second);
    const a = new DecisionCache(first.cache, first.revisions, { ttlMs: 60_000 });
    const b = new DecisionCache(second.cache, second.revisions, { ttlMs: 60_000 });
    const req = request(user('alice'), AuthorizationAction.View, { resourceId: 'case-1' });

    const lookup = await a.lookup(req);
    if (lookup.status !== 'miss') throw new Error('expected a miss');
    await a.store(req, lookup, permit());
    await expect(b.lookup(req)).resolves.toEqual(expect.objectContaining({ status: 'hit' }));

    await second.revisions.bump('rev:policy:t1');
    await expect(a.lookup(req)).resolves.toEqual(expect.objectContaining({ status: 'miss' }));
  });

  it('stores the entry with a Redis expiry clamped to the grant, under a short hashed key', async () => {
    const adapters = open();
    const prefix = prefixes[prefixes.length - 1]!;
    const cache = new DecisionCache(adapters.cache, adapters.revisions, { ttlMs: 60_000 });
    const req = request(user('alice'), AuthorizationAction.View, { resourceId: 'x'.repeat(2000) });
    const lookup = await cache.lookup(req);
    if (lookup.status !== 'miss') throw new Error('expected a miss');
    await cache.store(req, lookup, permit(), new Date(Date.now() + 5_000).toISOString());

    const key = `${prefix}:kv:${decisionCacheKey(req, lookup)}`;
    expect(key.length).toBeLessThan(prefix.length + 100);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    const stored = JSON.parse((await redis.get(key))!);
    expect(stored).not.toHaveProperty('decisionId');
    expect(stored).not.toHaveProperty('dataScope');
  });
});

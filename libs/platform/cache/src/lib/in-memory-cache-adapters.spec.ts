import { createCacheAdapters } from './cache-adapters';
import { cacheAdaptersContract } from '../../test/cache-adapters.contract';
import { InMemoryKeyValueCache } from './in-memory-key-value-cache';
import { InMemoryRevisionCounters } from './in-memory-revision-counters';

let prefixes = 0;

describe('in-memory cache adapters', () => {
  cacheAdaptersContract(
    (keyPrefix) => createCacheAdapters({ keyPrefix }),
    () => `mem${++prefixes}`,
  );
});

describe('createCacheAdapters without a Redis URL', () => {
  it.each([undefined, '', '   '])('picks the in-memory adapters for redisUrl %j', async (redisUrl) => {
    const adapters = createCacheAdapters({ redisUrl, keyPrefix: 'lp' });
    expect(adapters.cache).toBeInstanceOf(InMemoryKeyValueCache);
    expect(adapters.revisions).toBeInstanceOf(InMemoryRevisionCounters);
    // The operations adapter report classifies by class-name prefix.
    expect(adapters.cache.constructor.name).toMatch(/^InMemory/);
    expect(adapters.revisions.constructor.name).toMatch(/^InMemory/);
    await adapters.close();
  });
});

describe('InMemoryKeyValueCache', () => {
  it('drops the least recently used entry beyond maxEntries', async () => {
    const cache = new InMemoryKeyValueCache({ maxEntries: 2 });
    await cache.set('a', 1, 60_000);
    await cache.set('b', 2, 60_000);
    await cache.get('a');
    await cache.set('c', 3, 60_000);

    await expect(cache.getMany(['a', 'b', 'c'])).resolves.toEqual([1, undefined, 3]);
  });
});

describe('InMemoryRevisionCounters', () => {
  it('never lets an evicted counter go back to a value it had', async () => {
    const revisions = new InMemoryRevisionCounters({ maxEntries: 2 });
    for (let i = 0; i < 3; i++) await revisions.bump('tenant:t1');
    await revisions.bump('subject:a');
    await revisions.bump('subject:b'); // evicts tenant:t1, the least recently used

    const [tenant] = (await revisions.read(['tenant:t1'])).values;
    expect(tenant).toBeGreaterThanOrEqual(3);
    await expect(revisions.bump('tenant:t1')).resolves.toBeGreaterThan(3);
  });

  it('keeps counters that are still held at their own values', async () => {
    const revisions = new InMemoryRevisionCounters({ maxEntries: 2 });
    await revisions.bump('a');
    for (let i = 0; i < 5; i++) await revisions.bump('b');
    await revisions.read(['a']);
    await revisions.bump('c'); // evicts b (5): the floor rises, a keeps 1

    expect((await revisions.read(['a', 'c'])).values).toEqual([1, 1]);
    expect((await revisions.read(['b'])).values).toEqual([5]);
  });
});

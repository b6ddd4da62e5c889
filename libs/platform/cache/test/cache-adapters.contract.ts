import { setTimeout as sleep } from 'node:timers/promises';
import type { CacheAdapters } from '../src/lib/cache-adapters';

/**
 * The behaviour every KeyValueCache + RevisionCounters pair must show, run over each adapter
 * (in-memory in a unit spec, Redis in an integration spec). Call it inside a `describe`.
 * `create(keyPrefix)` returns a fresh pair; the suite closes every pair it opened.
 */
export function cacheAdaptersContract(create: (keyPrefix: string) => CacheAdapters, newKeyPrefix: () => string): void {
  const opened: CacheAdapters[] = [];
  const open = (keyPrefix = newKeyPrefix()) => {
    const adapters = create(keyPrefix);
    opened.push(adapters);
    return adapters;
  };
  let cache: CacheAdapters['cache'];
  let revisions: CacheAdapters['revisions'];

  beforeEach(() => {
    ({ cache, revisions } = open());
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((adapters) => adapters.close()));
  });

  describe('KeyValueCache', () => {
    it('misses a key never set', async () => {
      await expect(cache.get('absent')).resolves.toBeUndefined();
    });

    it('returns what was set, as a JSON copy', async () => {
      const decision = { effect: 'Permit', scope: { tenantId: 't1', ownerIds: ['a', 'b'] }, at: new Date('2026-01-02T03:04:05.000Z') };
      await cache.set('decision', decision, 60_000);

      const read = await cache.get<{ scope: { ownerIds: string[] } }>('decision');
      expect(read).toEqual({ effect: 'Permit', scope: { tenantId: 't1', ownerIds: ['a', 'b'] }, at: '2026-01-02T03:04:05.000Z' });

      read?.scope.ownerIds.push('mutated');
      await expect(cache.get('decision')).resolves.toEqual(expect.objectContaining({ scope: { tenantId: 't1', ownerIds: ['a', 'b'] } }));
    });

    it.each([
      ['a number', 42],
      ['a string', 'text'],
      ['false', false],
      ['null', null],
      ['an array', [1, 'two', { three: 3 }]],
    ])('round-trips %s (a falsy value is still a hit)', async (_name, value) => {
      await cache.set('value', value, 60_000);
      await expect(cache.get('value')).resolves.toEqual(value);
    });

    it('replaces a value on set', async () => {
      await cache.set('k', 'first', 60_000);
      await cache.set('k', 'second', 60_000);
      await expect(cache.get('k')).resolves.toBe('second');
    });

    it('expires an entry after its ttl, and only that entry', async () => {
      await cache.set('short', 'soon gone', 150);
      await cache.set('long', 'stays', 60_000);
      await expect(cache.get('short')).resolves.toBe('soon gone');

      await sleep(400);

      await expect(cache.get('short')).resolves.toBeUndefined();
      await expect(cache.get('long')).resolves.toBe('stays');
    });

    it('treats a ttl of 0 or less as already expired, removing an older value', async () => {
      await cache.set('k', 'old', 60_000);
      await cache.set('k', 'new', 0);
      await expect(cache.get('k')).resolves.toBeUndefined();
      await cache.set('k', 'new', -5);
      await expect(cache.get('k')).resolves.toBeUndefined();
    });

    it('rejects a value without JSON form and a ttl that is not a number', async () => {
      await expect(cache.set('k', undefined, 60_000)).rejects.toThrow(TypeError);
      await expect(cache.set('k', 'v', Number.NaN)).rejects.toThrow(RangeError);
      await expect(cache.get('k')).resolves.toBeUndefined();
    });

    it('deletes a key, and deleting an absent key is fine', async () => {
      await cache.set('k', 'v', 60_000);
      await cache.delete('k');
      await cache.delete('never-set');
      await expect(cache.get('k')).resolves.toBeUndefined();
    });

    it('gets many keys in the order asked, misses as undefined', async () => {
      await cache.set('a', 1, 60_000);
      await cache.set('c', { three: 3 }, 60_000);
      await expect(cache.getMany(['c', 'b', 'a', 'c'])).resolves.toEqual([{ three: 3 }, undefined, 1, { three: 3 }]);
      await expect(cache.getMany([])).resolves.toEqual([]);
    });

    it('answers ping', async () => {
      await expect(cache.ping()).resolves.toBeUndefined();
    });
  });

  describe('RevisionCounters', () => {
    it('reads 0 for counters never bumped', async () => {
      expect((await revisions.read(['tenant:t1', 'subject:t1:alice'])).values).toEqual([0, 0]);
      expect((await revisions.read([])).values).toEqual([]);
    });

    it('bumps by one and returns the new value', async () => {
      await expect(revisions.bump('tenant:t1')).resolves.toBe(1);
      await expect(revisions.bump('tenant:t1')).resolves.toBe(2);
      expect((await revisions.read(['tenant:t1'])).values).toEqual([2]);
    });

    it('reads many counters in the order asked', async () => {
      await revisions.bump('b');
      await revisions.bump('c');
      await revisions.bump('c');
      expect((await revisions.read(['c', 'a', 'b', 'c'])).values).toEqual([2, 0, 1, 2]);
    });

    it('never hands out the same value twice under concurrent bumps', async () => {
      const values = await Promise.all(Array.from({ length: 25 }, () => revisions.bump('feature:global')));
      expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });

    it('reports one epoch for every read while the counters live, the same for every reader of one store', async () => {
      const first = await revisions.read(['a']);
      await revisions.bump('a');
      const second = await revisions.read(['a', 'b']);
      expect(first.epoch).toEqual(expect.any(String));
      expect(first.epoch.length).toBeGreaterThan(0);
      expect(second.epoch).toBe(first.epoch);
    });

    it('invalidates entries keyed with the revisions they were computed under', async () => {
      const keyFor = async (base: string) => {
        const { epoch, values } = await revisions.read(['tenant:t1', 'subject:t1:alice']);
        return `${base}|e=${epoch}|r=${values.join('.')}`;
      };
      await cache.set(await keyFor('alice:read'), 'Permit', 60_000);
      await expect(cache.get(await keyFor('alice:read'))).resolves.toBe('Permit');

      await revisions.bump('subject:t1:alice');

      await expect(cache.get(await keyFor('alice:read'))).resolves.toBeUndefined();
    });
  });

  describe('isolation', () => {
    it('keeps cache keys and counter names apart', async () => {
      await cache.set('tenant:t1', { cached: true }, 60_000);
      expect((await revisions.read(['tenant:t1'])).values).toEqual([0]);
      await expect(revisions.bump('tenant:t1')).resolves.toBe(1);
      await expect(cache.get('tenant:t1')).resolves.toEqual({ cached: true });
    });

    it('does not share entries or counters between key prefixes', async () => {
      const other = open();
      await cache.set('k', 'mine', 60_000);
      await other.cache.set('k', 'theirs', 60_000);
      await revisions.bump('r');
      await revisions.bump('r');
      await other.revisions.bump('r');

      await expect(cache.get('k')).resolves.toBe('mine');
      await expect(other.cache.get('k')).resolves.toBe('theirs');
      expect((await revisions.read(['r'])).values).toEqual([2]);
      expect((await other.revisions.read(['r'])).values).toEqual([1]);

      await other.cache.delete('k');
      await expect(cache.get('k')).resolves.toBe('mine');
    });
  });
}

import { InMemoryKeyValueCache, RevisionCounters, RevisionStamp } from '@lp/platform/cache';
import { RevisionStampedNearCache } from './revision-stamped-near-cache';

/** A shared store that counts its reads, standing in for the Redis adapter's interface. */
class CountingStore extends InMemoryKeyValueCache {
  reads = 0;
  override async get<T>(key: string): Promise<T | undefined> {
    this.reads += 1;
    return super.get<T>(key);
  }
  override async getMany<T>(keys: string[]): Promise<(T | undefined)[]> {
    this.reads += keys.length;
    return super.getMany<T>(keys);
  }
}

/** Counters whose epoch the test sets, as a Redis restart would change it. */
class SettableEpochCounters extends RevisionCounters {
  epoch = 'e1';
  async read(names: string[]): Promise<RevisionStamp> {
    this.observeEpoch(this.epoch);
    return { epoch: this.epoch, values: names.map(() => 0) };
  }
  async bump(): Promise<number> {
    return 1;
  }
}

describe('RevisionStampedNearCache', () => {
  it('drops every copy it holds when a read of the counters sees a new epoch (a Redis restart), and only then', async () => {
    const shared = new CountingStore();
    const revisions = new SettableEpochCounters();
    const near = new RevisionStampedNearCache(shared, { revisions });
    await revisions.read([]);
    await near.set('k:rev0', 'kept', 60_000);
    await revisions.read([]); // the same epoch: nothing dropped
    expect(await near.get('k:rev0')).toBe('kept');
    expect(shared.reads).toBe(0);

    revisions.epoch = 'e2';
    await revisions.read([]);
    expect(await near.get('k:rev0')).toBe('kept'); // read from the shared store again: the copy was dropped
    expect(shared.reads).toBe(1);
  });

  it('reads a shared entry once per instance, then serves its own copy', async () => {
    const shared = new CountingStore();
    await shared.set('decision:rev7', { outcome: 'Permit' }, 60_000);
    const near = new RevisionStampedNearCache(shared);
    expect(await near.get('decision:rev7')).toEqual({ outcome: 'Permit' });
    expect(await near.get('decision:rev7')).toEqual({ outcome: 'Permit' });
    expect(shared.reads).toBe(1);
  });

  it('writes through, so other instances find what this one stored', async () => {
    const shared = new CountingStore();
    const a = new RevisionStampedNearCache(shared);
    const b = new RevisionStampedNearCache(shared);
    await a.set('k:rev1', [1, 2], 60_000);
    expect(await b.get('k:rev1')).toEqual([1, 2]);
    expect(shared.reads).toBe(1);
  });

  it('never keeps a copy longer than the entry itself may live', async () => {
    const shared = new CountingStore();
    const near = new RevisionStampedNearCache(shared, { nearTtlMs: 30_000 });
    await near.set('k:rev1', 'v', 50);
    await new Promise((r) => setTimeout(r, 120));
    expect(await near.get('k:rev1')).toBeUndefined();
  });

  it('answers getMany from its copies and fetches only the rest', async () => {
    const shared = new CountingStore();
    await shared.set('a', 1, 60_000);
    await shared.set('b', 2, 60_000);
    const near = new RevisionStampedNearCache(shared);
    await near.get('a');
    shared.reads = 0;
    expect(await near.getMany(['a', 'b', 'c'])).toEqual([1, 2, undefined]);
    expect(shared.reads).toBe(2);
  });

  it('hands out a copy detached from the writer, that no reader can change for the next one', async () => {
    const near = new RevisionStampedNearCache(new CountingStore());
    const written = { outcome: 'Permit', evaluations: [{ evaluator: 'RBAC', reason: 'role clerk' }] };
    await near.set('decision:rev8', written, 60_000);
    written.evaluations[0]!.reason = 'changed by the writer afterwards';

    const read = await near.get<typeof written>('decision:rev8');
    expect(read).toEqual({ outcome: 'Permit', evaluations: [{ evaluator: 'RBAC', reason: 'role clerk' }] });
    expect(() => {
      read!.evaluations[0]!.reason = 'changed by a reader';
    }).toThrow(TypeError);
    expect(() => read!.evaluations.push({ evaluator: 'ABAC', reason: 'added' })).toThrow(TypeError);
    expect(await near.get('decision:rev8')).toEqual({ outcome: 'Permit', evaluations: [{ evaluator: 'RBAC', reason: 'role clerk' }] });
  });

  it('keeps values that are not objects too', async () => {
    const near = new RevisionStampedNearCache(new CountingStore());
    await near.set('n', 42, 60_000);
    await near.set('s', 'text', 60_000);
    expect(await near.getMany(['n', 's', 'absent'])).toEqual([42, 'text', undefined]);
  });
});

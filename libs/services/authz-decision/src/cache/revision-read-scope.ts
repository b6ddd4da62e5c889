import { AsyncLocalStorage } from 'node:async_hooks';
import { RevisionCounters } from '@lp/platform/cache';

const snapshots = new AsyncLocalStorage<ReadonlyMap<string, number>>();

/**
 * One read of every revision counter a decision needs (decision, DataScope, ReBAC), shared by the
 * caches it consults: a cache hit then costs one round trip to Redis for counters instead of one
 * per cache, and every cache of one decision sees the same revisions.
 */
export const RevisionReadScope = {
  /**
   * Reads `names` in one call and runs `work` with reads of those counters answered from it. When
   * the counters cannot be read, `work` runs without a snapshot: each cache then finds out for
   * itself and falls back to the facts.
   */
  async run<T>(counters: RevisionCounters, names: readonly string[], work: () => Promise<T>): Promise<T> {
    let values: number[];
    try {
      values = await counters.read([...names]);
    } catch {
      return work();
    }
    return snapshots.run(new Map(names.map((name, i) => [name, values[i]])), work);
  },

  /** The counters' values from the enclosing snapshot when it holds them all, else a fresh read. */
  read(counters: RevisionCounters, names: readonly string[]): Promise<number[]> {
    const snapshot = snapshots.getStore();
    if (snapshot && names.every((name) => snapshot.has(name))) return Promise.resolve(names.map((name) => snapshot.get(name) as number));
    return counters.read([...names]);
  },
};

import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { RevisionCounters, RevisionStamp } from './revision-counters';

export interface InMemoryRevisionCountersOptions {
  /** Counters kept; least recently used ones beyond this are evicted (see the class comment). */
  maxEntries?: number;
}

/**
 * The embedded-profile revision counters: per process, which is enough because the in-process
 * cache they guard is per process too.
 *
 * Bounded by an LRU, but eviction must never let a counter go back: entries keyed with an old
 * value would become readable again and serve stale decisions. So an evicted counter's value
 * raises a floor, and a counter not held reads the floor instead of 0. Reading a higher value
 * than before only causes cache misses; reading a lower one would be a stale hit.
 *
 * The counters live and die with the process, as the caches keyed on them do: one epoch per
 * instance, random so that no two instances' stamps are ever equal.
 */
export class InMemoryRevisionCounters extends RevisionCounters {
  private floor = 0;
  private readonly epoch = randomBytes(8).toString('hex');
  private readonly counters: LRUCache<string, number>;

  constructor({ maxEntries = 100_000 }: InMemoryRevisionCountersOptions = {}) {
    super();
    this.counters = new LRUCache<string, number>({
      max: maxEntries,
      dispose: (value, _name, reason) => {
        if (reason === 'evict') this.floor = Math.max(this.floor, value);
      },
    });
  }

  async read(names: string[]): Promise<RevisionStamp> {
    return { epoch: this.epoch, values: names.map((name) => this.current(name)) };
  }

  async bump(name: string): Promise<number> {
    const next = this.current(name) + 1;
    this.counters.set(name, next);
    return next;
  }

  private current(name: string): number {
    return this.counters.get(name) ?? this.floor;
  }
}

/**
 * What one `read` answers: the counters' values in the order asked, and the epoch they belong to.
 * A cache key (a "stamp") holds both: the values alone can repeat (below), the pair never does.
 */
export interface RevisionStamp {
  /** Names the life of the counters: a new epoch means the values may restart, so nothing stamped before is current. */
  readonly epoch: string;
  readonly values: number[];
}

/**
 * Revision counters, the invalidation primitive of the decision, DataScope and ReBAC caches
 * (ARCHITECTURE.md, Caches). A cache entry's key includes the current values of the counters it
 * depends on; bumping one moves every later read to new keys, so all entries under it are
 * invalidated at once, exactly, without scanning keys. The old entries age out by their TTL.
 *
 * What every adapter guarantees, and all keying needs: within one epoch a counter's value never
 * goes back, and `bump` returns a value never seen before for that name; a counter never bumped
 * reads 0 (the in-memory adapter may read higher after evicting counters; see
 * `InMemoryRevisionCounters`). The values can restart when the store loses them (a Redis restart
 * without persistence, or one restored from an older snapshot): the epoch changes then, and it is
 * read in the same round trip as the values, so a stamp (epoch and values) never repeats.
 *
 * A cache that keeps entries in process (a near cache) registers `onEpochChange` and drops what it
 * holds: those entries are already unreachable (their keys hold the old epoch), this frees them.
 */
export abstract class RevisionCounters {
  private lastEpoch?: string;
  private readonly epochListeners: Array<(epoch: string) => void> = [];

  /** Current values in the order of `names` and their epoch, in one round trip. */
  abstract read(names: string[]): Promise<RevisionStamp>;
  /** Increments and returns the new value. */
  abstract bump(name: string): Promise<number>;

  /** Called with the new epoch whenever a read sees an epoch other than the one before (never for the first). */
  onEpochChange(listener: (epoch: string) => void): void {
    this.epochListeners.push(listener);
  }

  /** Adapters call it with the epoch of every read they answer. */
  protected observeEpoch(epoch: string): void {
    if (epoch === this.lastEpoch) return;
    const changed = this.lastEpoch !== undefined;
    this.lastEpoch = epoch;
    if (changed) for (const listener of this.epochListeners) listener(epoch);
  }
}

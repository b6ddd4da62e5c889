/**
 * Revision counters, the invalidation primitive of the decision, DataScope and ReBAC caches
 * (ARCHITECTURE.md, Caches). A cache entry's key includes the current values of the counters it
 * depends on; bumping one moves every later read to new keys, so all entries under it are
 * invalidated at once, exactly, without scanning keys. The old entries age out by their TTL.
 *
 * What every adapter guarantees, and all keying needs: a counter's value never goes back, and
 * `bump` returns a value never seen before for that name. A counter never bumped reads 0 (the
 * in-memory adapter may read higher after evicting counters; see `InMemoryRevisionCounters`).
 */
export abstract class RevisionCounters {
  /** Current values in the order of `names`, in one round trip. */
  abstract read(names: string[]): Promise<number[]>;
  /** Increments and returns the new value. */
  abstract bump(name: string): Promise<number>;
}

import { LRUCache } from 'lru-cache';
import { effectiveTtlMs, KeyValueCache, RevisionCounters, serializeCacheValue } from '@lp/platform/cache';

/** Freezes a JSON value and everything in it, so one copy can be handed to every reader. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * An in-process copy in front of the shared cache (Redis), for the decision, DataScope and ReBAC
 * entries only. It is exact because those keys are revision-stamped: a key's value never changes,
 * an invalidation bumps a revision and so moves readers to a new key. What remains is read from
 * the shared store at most once per instance per `nearTtlMs`, which takes the network round trips
 * off a cache hit except the revision read itself.
 *
 * The keys hold the counters' epoch too: after a Redis restart the numbers start again, and the
 * near copy is the one place where entries stamped before it survive (issue 31: a revoked
 * permission permitted again for up to `nearTtlMs`). Those entries are unreachable under the new
 * epoch; given the counters (`revisions`), the near copy also drops them as soon as a read sees it.
 *
 * Decision entries carry their own expiry instant and are checked against it on every hit, and
 * the DataScope facts apply grant expiries with the clock, so the near copy's TTL never extends a
 * grant; it only bounds memory.
 *
 * The near copy holds each value parsed once and deeply frozen (made from its JSON text, so it is
 * detached from the writer's object and has JSON's shape, as a read from Redis would): a hit
 * hands out that same object without parsing, and a reader that tried to change it would throw
 * instead of changing what the next reader gets.
 */
export class RevisionStampedNearCache extends KeyValueCache {
  private readonly near: LRUCache<string, object>;
  private readonly nearTtlMs: number;

  constructor(
    private readonly shared: KeyValueCache,
    options: { maxEntries?: number; nearTtlMs?: number; revisions?: RevisionCounters } = {},
  ) {
    super();
    // TTLs per entry, checked lazily on read: no timers.
    this.near = new LRUCache<string, object>({ max: options.maxEntries ?? 50_000 });
    this.nearTtlMs = options.nearTtlMs ?? 30_000;
    options.revisions?.onEpochChange(() => this.near.clear());
  }

  async get<T>(key: string): Promise<T | undefined> {
    const local = this.near.get(key) as { value: T } | undefined;
    if (local !== undefined) return local.value;
    const value = await this.shared.get<T>(key);
    if (value !== undefined) this.keep(key, value, this.nearTtlMs);
    return value;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    await this.shared.set(key, value, ttlMs);
    this.keep(key, value, Math.min(ttlMs, this.nearTtlMs));
  }

  async delete(key: string): Promise<void> {
    this.near.delete(key);
    await this.shared.delete(key);
  }

  async getMany<T>(keys: string[]): Promise<(T | undefined)[]> {
    const local = keys.map((key) => (this.near.get(key) as { value: T } | undefined)?.value);
    const missing = keys.filter((_, i) => local[i] === undefined);
    if (missing.length === 0) return local;
    const fetched = await this.shared.getMany<T>(missing);
    const byKey = new Map(missing.map((key, i) => [key, fetched[i]]));
    for (const [key, value] of byKey) if (value !== undefined) this.keep(key, value, this.nearTtlMs);
    return keys.map((key, i) => local[i] ?? byKey.get(key));
  }

  ping(): Promise<void> {
    return this.shared.ping();
  }

  /** The shared store belongs to whoever created it; only the near copy is released here. */
  async close(): Promise<void> {
    this.near.clear();
  }

  /** A detached, frozen copy (boxed: the LRU holds objects, and a value may be a string or number). */
  private keep(key: string, value: unknown, ttlMs: number): void {
    const ttl = effectiveTtlMs(ttlMs);
    if (ttl === undefined) {
      this.near.delete(key);
      return;
    }
    this.near.set(key, { value: deepFreeze(JSON.parse(serializeCacheValue(key, value))) }, { ttl });
  }
}

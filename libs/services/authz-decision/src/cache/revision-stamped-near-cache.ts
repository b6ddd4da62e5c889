import { InMemoryKeyValueCache, KeyValueCache } from '@lp/platform/cache';

/**
 * An in-process copy in front of the shared cache (Redis), for the decision, DataScope and ReBAC
 * entries only. It is exact because those keys are revision-stamped: a key's value never changes,
 * an invalidation bumps a revision and so moves readers to a new key. What remains is read from
 * the shared store at most once per instance per `nearTtlMs`, which takes the network round trips
 * off a cache hit except the revision read itself.
 *
 * Decision entries carry their own expiry instant and are checked against it on every hit, and
 * the DataScope facts apply grant expiries with the clock, so the near copy's TTL never extends a
 * grant; it only bounds memory.
 */
export class RevisionStampedNearCache extends KeyValueCache {
  private readonly near: InMemoryKeyValueCache;

  constructor(
    private readonly shared: KeyValueCache,
    options: { maxEntries?: number; nearTtlMs?: number } = {},
  ) {
    super();
    this.near = new InMemoryKeyValueCache({ maxEntries: options.maxEntries ?? 50_000 });
    this.nearTtlMs = options.nearTtlMs ?? 30_000;
  }

  private readonly nearTtlMs: number;

  async get<T>(key: string): Promise<T | undefined> {
    const local = await this.near.get<T>(key);
    if (local !== undefined) return local;
    const value = await this.shared.get<T>(key);
    if (value !== undefined) await this.near.set(key, value, this.nearTtlMs);
    return value;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    await this.shared.set(key, value, ttlMs);
    await this.near.set(key, value, Math.min(ttlMs, this.nearTtlMs));
  }

  async delete(key: string): Promise<void> {
    await Promise.all([this.near.delete(key), this.shared.delete(key)]);
  }

  async getMany<T>(keys: string[]): Promise<(T | undefined)[]> {
    const local = await this.near.getMany<T>(keys);
    const missing = keys.filter((_, i) => local[i] === undefined);
    if (missing.length === 0) return local;
    const fetched = await this.shared.getMany<T>(missing);
    const byKey = new Map(missing.map((key, i) => [key, fetched[i]]));
    await Promise.all([...byKey].filter(([, v]) => v !== undefined).map(([k, v]) => this.near.set(k, v, this.nearTtlMs)));
    return keys.map((key, i) => local[i] ?? byKey.get(key));
  }

  ping(): Promise<void> {
    return this.shared.ping();
  }

  /** The shared store belongs to whoever created it; only the near copy is released here. */
  close(): Promise<void> {
    return this.near.close();
  }
}

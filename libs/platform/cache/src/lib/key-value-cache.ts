/**
 * The cache port. Values travel as JSON in every adapter, so what comes back is a copy with JSON's
 * shape (a Date comes back as its ISO string) whichever adapter the profile picked.
 *
 * Errors (a Redis outage) reject rather than read as a miss: callers on the decision path fail
 * closed, others may catch and recompute.
 */
export abstract class KeyValueCache {
  abstract get<T>(key: string): Promise<T | undefined>;
  /**
   * `ttlMs` bounds the entry's life. A `ttlMs` of 0 or less means "already expired": the key is
   * deleted and nothing is stored (a grant expiring now must not be cached).
   */
  abstract set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  abstract delete(key: string): Promise<void>;
  /** One round trip; results in the order of `keys`. */
  abstract getMany<T>(keys: string[]): Promise<(T | undefined)[]>;
  /** Rejects when the backing store is unreachable (readiness probe). */
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
}

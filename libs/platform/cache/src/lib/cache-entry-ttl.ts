/** Validates a TTL; `undefined` means the entry is already expired and must not be stored. */
export function effectiveTtlMs(ttlMs: number): number | undefined {
  if (!Number.isFinite(ttlMs)) throw new RangeError(`ttlMs must be a finite number of milliseconds, got ${ttlMs}`);
  // Whole milliseconds: Redis PX and lru-cache both take integers; rounding up never shortens a TTL to 0.
  return ttlMs > 0 ? Math.ceil(ttlMs) : undefined;
}

/** JSON text of a value to cache; `undefined` has none, and would read back as a miss anyway. */
export function serializeCacheValue(key: string, value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`cannot cache ${typeof value} under "${key}": it has no JSON form`);
  return text;
}

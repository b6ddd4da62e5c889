import Redis from 'ioredis';

/** Every key matching `pattern`, by SCAN: KEYS would block a Redis server other runs share. */
export async function scanRedisKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** Deletes every key under `prefix` (a run's own key prefix); returns how many. Refuses a blank or wildcard prefix. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  if (!prefix.trim() || prefix.includes('*')) throw new Error(`Refusing to delete Redis keys under "${prefix}"`);
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys = await scanRedisKeys(redis, `${prefix}*`);
    let deleted = 0;
    // UNLINK frees in the background; in slices, so one call never carries an unbounded argument list.
    for (let i = 0; i < keys.length; i += 1000) deleted += await redis.unlink(...keys.slice(i, i + 1000));
    return deleted;
  } finally {
    await redis.quit();
  }
}

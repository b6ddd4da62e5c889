import { Logger } from '@nestjs/common';
import { createServer, type Server, type Socket } from 'node:net';
import { createCacheAdapters } from './cache-adapters';
import { CacheUnavailableError } from './cache-unavailable.error';
import { RedisKeyValueCache } from './redis-key-value-cache';
import { RedisRevisionCounters } from './redis-revision-counters';

// No Redis needed: these point the Redis adapters at local sockets that are not a working Redis.

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('Redis adapters when Redis is unreachable', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    warn.mockRestore();
  });

  it('reject every call when nothing listens on the port, logging the outage once per connection', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await close(probe); // the port is now free: connections are refused

    const adapters = createCacheAdapters({ redisUrl: `redis://127.0.0.1:${port}`, keyPrefix: 'outage' });
    expect(adapters.cache).toBeInstanceOf(RedisKeyValueCache);
    expect(adapters.revisions).toBeInstanceOf(RedisRevisionCounters);
    try {
      // The first call of each connection waits for its first connection attempts, then fails.
      await expect(adapters.cache.get('k')).rejects.toThrow();
      await expect(adapters.revisions.read(['tenant:t1'])).rejects.toThrow();
      // Once the connection is known to be down, calls fail without waiting.
      await expect(adapters.cache.set('k', 'v', 60_000)).rejects.toThrow(CacheUnavailableError);
      await expect(adapters.cache.getMany(['a', 'b'])).rejects.toThrow(CacheUnavailableError);
      await expect(adapters.cache.ping()).rejects.toThrow(/Cache unavailable: Redis: connect ECONNREFUSED/);
      await expect(adapters.revisions.bump('tenant:t1')).rejects.toThrow(CacheUnavailableError);
    } finally {
      await adapters.close();
    }
    // Several connection attempts failed per client, but each client reported the outage once.
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.every(([message]) => String(message).startsWith('Redis unavailable'))).toBe(true);
  });

  it('reject calls to a server that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    const port = await listen(silent);
    const cache = new RedisKeyValueCache({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'silent', commandTimeoutMs: 200 });
    const revisions = new RedisRevisionCounters({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'silent', commandTimeoutMs: 200 });
    try {
      await expect(cache.get('k')).rejects.toThrow(/timed out/i);
      await expect(revisions.bump('r')).rejects.toThrow(/timed out/i);
    } finally {
      await Promise.all([cache.close(), revisions.close()]);
      for (const socket of sockets) socket.destroy();
      await close(silent);
    }
  });

  it('refuses an empty key prefix', () => {
    expect(() => new RedisKeyValueCache({ url: 'redis://127.0.0.1:1', keyPrefix: ' ' })).toThrow(/keyPrefix/);
  });
});

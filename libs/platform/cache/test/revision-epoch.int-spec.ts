import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { describeWithPrivateRedis, PrivateRedisServer, TcpOutageProxy } from '@lp/platform/testing';
import { createCacheAdapters, type CacheAdapters } from '../src/lib/cache-adapters';
import type { RevisionCounters, RevisionStamp } from '../src/lib/revision-counters';

/** Reads until the adapter answers again after a restart: bounded by attempts, each failing fast while Redis is away. */
async function readWhenBack(revisions: RevisionCounters, names: string[], timeoutMs = 10_000): Promise<RevisionStamp> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await revisions.read(names);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

const stampOf = ({ epoch, values }: RevisionStamp) => `${epoch}|${values.join('.')}`;

// Issue 31, item 2: the counters lived only in Redis and a missing counter read 0, so after a
// restart they handed out numbers already used, and entries stamped with them (the in-process near
// cache) answered for a policy that had changed since. A stamp is now the counters' epoch and values.
describeWithPrivateRedis('revision counters across Redis restarts (a Redis of the test own)', () => {
  const server = new PrivateRedisServer();
  const opened: CacheAdapters[] = [];
  const open = (url = server.url, keyPrefix = 'epoch-test') => {
    const adapters = createCacheAdapters({ redisUrl: url, keyPrefix, commandTimeoutMs: 1000 });
    opened.push(adapters);
    return adapters;
  };
  let quiet: jest.SpyInstance[];

  beforeAll(() => server.start(), 30_000);
  afterAll(() => server.stop());
  beforeEach(() => {
    quiet = [jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined), jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined)];
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((adapters) => adapters.close()));
    for (const spy of quiet) spy.mockRestore();
  });

  it('never repeats a stamp when restarts lose the counters: 20 restarts, each followed by the same bumps', async () => {
    const { revisions } = open();
    const seen = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const stamps = [await readWhenBack(revisions, ['policy', 'subject'])];
      await revisions.bump('subject');
      stamps.push(await revisions.read(['policy', 'subject']));
      expect(stamps.map((s) => s.values)).toEqual([
        [0, 0],
        [0, 1],
      ]); // the numbers repeat every round...
      for (const stamp of stamps) {
        expect(seen.has(stampOf(stamp))).toBe(false); // ...the stamps never
        seen.add(stampOf(stamp));
      }
      await server.restart();
    }
  }, 120_000);

  it('changes the epoch when a restart restores the counters from an older snapshot', async () => {
    const { revisions } = open();
    const admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      await revisions.bump('subject');
      await revisions.read(['subject']);
      await admin.save(); // the snapshot holds the epoch and subject = 1
      await revisions.bump('subject');
      const before = await revisions.read(['subject']);
      expect(before.values).toEqual([2]);

      await server.restart(); // loads the snapshot: subject = 1, and the old epoch
      const restored = await readWhenBack(revisions, ['subject']);
      expect(restored.values).toEqual([1]);
      await revisions.bump('subject');
      const after = await revisions.read(['subject']);
      expect(after.values).toEqual(before.values); // the number is handed out again...
      expect(after.epoch).not.toBe(before.epoch); // ...under another epoch
    } finally {
      admin.disconnect();
    }
  }, 60_000);

  it('has every replica adopt the one new epoch, telling each that its entries are stale', async () => {
    const first = open().revisions;
    const second = open().revisions;
    const changes: string[][] = [[], []];
    first.onEpochChange((epoch) => changes[0]!.push(epoch));
    second.onEpochChange((epoch) => changes[1]!.push(epoch));
    const old = await first.read(['r']);
    expect((await second.read(['r'])).epoch).toBe(old.epoch);

    await server.restart();
    // One replica creates the new epoch; the other, still holding the old one, reads the new one.
    const renewed = await readWhenBack(second, ['r']);
    expect(renewed.epoch).not.toBe(old.epoch);
    expect((await readWhenBack(first, ['r'])).epoch).toBe(renewed.epoch);
    expect(changes).toEqual([[renewed.epoch], [renewed.epoch]]);
  }, 60_000);

  it('keeps the epoch when only the connection drops (the same server: nothing to drop)', async () => {
    const proxy = new TcpOutageProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    await proxy.start();
    try {
      const { revisions } = open(`redis://${proxy.url}`);
      await revisions.bump('r');
      const before = await revisions.read(['r']);
      await proxy.stop();
      await expect(revisions.read(['r'])).rejects.toThrow();
      await proxy.start();
      const after = await readWhenBack(revisions, ['r']);
      expect(after).toEqual(before);
    } finally {
      await proxy.stop();
    }
  }, 60_000);
});

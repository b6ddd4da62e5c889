import Redis from 'ioredis';
import { describeWithServers, listBrokerObjects, scanRedisKeys, testServerUrls } from '@lp/platform/testing';
import { OperationsTestPlatform } from './support/operations-platform';

// Every suite shares the machine's servers with later runs and other projects: what a run creates
// must be gone after its teardown, not left for a global sweep. The platform hosts every service of
// the fleet, and its teardown deletes their queues and exchanges by the names it derives (no listing):
// this lists the broker's objects to prove the derived names are all there are.
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'a test platform leaves nothing behind', () => {
  it('after stop, no queue, exchange or Redis key of its run remains', async () => {
    const platform = await new OperationsTestPlatform('hygiene').start();
    const id = platform.id!;
    await platform.as().get('/api/authorization/roles').expect(200); // caches, revisions, audit
    await platform.flushAudit();
    const redis = new Redis(testServerUrls.redis);
    try {
      expect((await scanRedisKeys(redis, `${id}:*`)).length).toBeGreaterThan(0);
      const during = await listBrokerObjects();
      expect(during?.queues.some((q) => q.startsWith(`${id}.`))).toBe(true);

      await platform.stop();

      expect(await scanRedisKeys(redis, `${id}:*`)).toEqual([]);
      const after = await listBrokerObjects();
      expect(after).toBeDefined();
      expect(after!.queues.filter((q) => q.startsWith(`${id}.`))).toEqual([]);
      expect(after!.exchanges.filter((e) => e.startsWith(`${id}.`))).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 90_000);
});

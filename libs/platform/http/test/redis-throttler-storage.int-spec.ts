import { Controller, Get, INestApplication, Logger, Module, Post } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import request from 'supertest';
import { deleteRedisKeys, describeWithServers, scanRedisKeys, TcpOutageProxy, testRunId, testServerUrls } from '@lp/platform/testing';
import { ProblemDetailsFilter, RedisThrottlerStorage, userPolicyThrottlerOptions, UserPolicyThrottlerGuard } from '../src';
import { FakeCallerGuard } from './fake-caller.guard';

@Controller('things')
class ThingsController {
  @Post()
  create() {
    return { ok: true };
  }
  @Get()
  list() {
    return [];
  }
}

/** One replica of a service with the userPolicy limit (2 writes a minute) counted in Redis under `keyPrefix`. */
async function replica(redisUrl: string, keyPrefix: string): Promise<INestApplication> {
  @Module({
    imports: [
      ThrottlerModule.forRootAsync({
        useFactory: () => ({ ...userPolicyThrottlerOptions({ limit: 2, ttlMs: 60_000 }), storage: new RedisThrottlerStorage({ url: redisUrl, keyPrefix }) }),
      }),
    ],
    controllers: [ThingsController],
    providers: [
      { provide: APP_GUARD, useClass: FakeCallerGuard },
      { provide: APP_GUARD, useClass: UserPolicyThrottlerGuard },
      { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    ],
  })
  class ReplicaModule {}
  const app = await NestFactory.create(ReplicaModule, { logger: false });
  await app.init();
  return app;
}

const write = (app: INestApplication, subject: string) => request(app.getHttpServer()).post('/things').set('X-Test-Subject', subject);

describeWithServers(['redis'], 'userPolicy counted in Redis (RedisThrottlerStorage)', () => {
  const prefixes: string[] = [];
  const newPrefix = () => {
    const prefix = testRunId('throttle');
    prefixes.push(prefix);
    return prefix;
  };
  let redis: Redis;
  const apps: INestApplication[] = [];

  beforeAll(() => {
    redis = new Redis(testServerUrls.redis, { maxRetriesPerRequest: 1 });
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteRedisKeys(testServerUrls.redis, `${prefix}:`);
    await redis.quit();
  });

  it('holds the limit per caller across replicas, not per replica', async () => {
    const prefix = newPrefix();
    const [a, b] = [await replica(testServerUrls.redis, prefix), await replica(testServerUrls.redis, prefix)];
    apps.push(a, b);

    await write(a, 'alice').expect(201);
    await write(b, 'alice').expect(201);
    const limited = await write(a, 'alice').expect(429);
    expect(limited.body.code).toBe('RateLimited');
    await write(b, 'alice').expect(429);
    // Other callers and reads are untouched.
    await write(b, 'bob').expect(201);
    await request(a.getHttpServer()).get('/things').set('X-Test-Subject', 'alice').expect(200);

    // Under the service's prefix: alice's count and block (her key is a hash of route, policy and caller).
    const keys = (await scanRedisKeys(redis, `${prefix}:throttle:*`)).map((key) => key.slice(prefix.length));
    expect(keys.sort()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^:throttle:\{[0-9a-f]+:userPolicy\}:hits$/),
        expect.stringMatching(/^:throttle:\{[0-9a-f]+:userPolicy\}:blocked$/),
      ]),
    );
    expect(keys).toHaveLength(3); // alice's hits and block, bob's hits
  });

  it('counts per instance while Redis is unreachable, so writes are still limited and never fail', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const target = new URL(testServerUrls.redis);
    const proxy = new TcpOutageProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.start();
    const url = new URL(testServerUrls.redis);
    url.host = proxy.url;
    try {
      const app = await replica(url.toString(), newPrefix());
      apps.push(app);
      await write(app, 'carol').expect(201);

      await proxy.stop();
      // The shared count (1) is out of reach: this instance starts its own.
      await write(app, 'carol').expect(201);
      await write(app, 'carol').expect(201);
      await write(app, 'carol').expect(429);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^userPolicy counted per instance while Redis is unavailable/));
      expect(warn.mock.calls.filter(([line]) => String(line).startsWith('userPolicy counted per instance')).length).toBe(1);

      await proxy.start();
      // Back on the shared count, which still holds carol's first write.
      await eventually(async () => {
        await write(app, 'carol');
        expect(log).toHaveBeenCalledWith('userPolicy counted in Redis again');
      });
    } finally {
      warn.mockRestore();
      log.mockRestore();
      await proxy.stop().catch(() => undefined);
    }
  });
});

async function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

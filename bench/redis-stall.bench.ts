/**
 * Guarded reads while Redis is stalled vs the same reads with no Redis at all (the in-memory
 * cache): a stalled cache must cost a few fast misses, not waits. policy-management and
 * authz-decision run in this process on PostgreSQL (a database of their own) and the in-process
 * broker; Redis is reached through a `TcpOutageProxy` that holds every byte while stalled, like
 * `CLIENT PAUSE` but for these connections only. The verdict: p99 during the stall within 2x of the
 * p99 without Redis, and every answer a 200.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { signAccessToken } from '@lp/platform/auth';
import { createHttpServer, createServiceApp, PlatformHttpServer, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteRedisKeys, TcpOutageProxy } from '@lp/platform/testing';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';
import { formatTable, LatencySummary, summarize } from './latency-stats';

const RATIO_BOUND = 2;
const CONCURRENCY = 8;

interface Scenario {
  label: string;
  summary: LatencySummary;
  statuses: Record<number, number>;
}

/** Guarded reads from `CONCURRENCY` callers for `seconds`: latency of each, and the answers by status. */
async function readFor(label: string, url: string, token: string, seconds: number): Promise<Scenario> {
  const samples: number[] = [];
  const statuses: Record<number, number> = {};
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      samples.push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { label, summary: summarize(samples, performance.now() - started), statuses };
}

async function startStack(id: string, env: Record<string, string>) {
  const secret = randomBytes(32).toString('base64url');
  const runtime = await startPlatformRuntime(`bench-${id}`, { ...env, JWT_SECRET: secret, LOG_LEVEL: 'silent', AMQP_URL: '' });
  const apps: ServiceApp[] = [await createServiceApp(policyManagementService, runtime), await createServiceApp(authzDecisionService, runtime)];
  const server: PlatformHttpServer = createHttpServer(apps[0]!.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const token = signAccessToken({ sub: 'admin', tenantId: 'default' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/authorization/roles`;
  return {
    url,
    token,
    stop: async () => {
      await server.drain(1_000);
      for (const { app } of apps.reverse()) await app.close();
      await runtime.close();
    },
  };
}

export async function benchRedisStall(options: { postgresUrl?: string; redisUrl?: string } = {}): Promise<void> {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  // 10 s also in a quick run: a shorter stall measures the first few calls that wait out the
  // timeout before the breaker opens (3 s: p99 7x), not the stall itself.
  const seconds = 10;
  const postgres = options.postgresUrl || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const redis = new URL(options.redisUrl || process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const id = `bench_stall_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  out(`\nguarded reads with Redis stalled ${seconds} s vs without Redis — ${CONCURRENCY} callers, database ${id}, REDIS_KEY_PREFIX ${id}:`);
  const proxy = new TcpOutageProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
  await proxy.start();
  const db = await createTestDatabase(postgres, id);
  const scenarios: Scenario[] = [];
  try {
    const withRedis = await startStack(`${id}-redis`, { DATABASE_URL: db.url, REDIS_URL: `redis://${proxy.url}`, REDIS_KEY_PREFIX: `${id}:` });
    try {
      await readFor('warm-up', withRedis.url, withRedis.token, 1);
      proxy.stall();
      scenarios.push(await readFor(`Redis stalled (${seconds} s)`, withRedis.url, withRedis.token, seconds));
    } finally {
      proxy.resume();
      await withRedis.stop();
    }
    const withoutRedis = await startStack(`${id}-memory`, { DATABASE_URL: db.url, REDIS_URL: '' });
    try {
      await readFor('warm-up', withoutRedis.url, withoutRedis.token, 1);
      scenarios.push(await readFor('no Redis (in-memory cache)', withoutRedis.url, withoutRedis.token, seconds));
    } finally {
      await withoutRedis.stop();
    }
  } finally {
    await proxy.stop();
    await db.drop();
    await deleteRedisKeys(redis.toString(), `${id}:`);
  }
  out(
    formatTable(
      scenarios.map((s) => ({
        scenario: s.label,
        requests: s.summary.count,
        statuses: Object.entries(s.statuses)
          .map(([status, n]) => `${n} x ${status}`)
          .join(', '),
        'p50 ms': s.summary.p50,
        'p99 ms': s.summary.p99,
      })),
    ),
  );
  const [stalled, baseline] = scenarios;
  if (!stalled || !baseline) throw new Error(`expected two scenarios, ran ${scenarios.length}`);
  const ratio = stalled.summary.p99 / baseline.summary.p99;
  const allOk = Object.keys(stalled.statuses).every((status) => status === '200');
  out(
    `p99 stalled / p99 without Redis: ${ratio.toFixed(2)}x (${ratio <= RATIO_BOUND ? 'within' : 'over'} ${RATIO_BOUND}x); answers during the stall ${allOk ? 'all 200' : 'NOT all 200'}`,
  );
}

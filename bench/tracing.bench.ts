/**
 * What tracing costs (issue 36): a guarded read (`GET /api/authorization/roles`: HTTP, the guard's
 * `authz.decide` over RabbitMQ, the query) served by two identical processes of policy-management +
 * authz-decision, one exporting every span over OTLP/HTTP to a receiver process, the other with
 * tracing off (no endpoint: the SDK never loads). Timed in alternating slices, so machine load hits
 * both alike. The verdict is machine time per request: the serving process, the receiver (which a
 * collector would be), RabbitMQ, PostgreSQL and Redis, the load generator (this process) left out
 * since it is the same for both. Target: at most 10 % more with tracing on.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { signAccessToken } from '@lp/platform/auth';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { deleteTopology } from './decision-bench-stack';
import { benchRunEnv, profileServer, startListeningServer, stopServer, teardownSteps } from './bench-processes';
import { formatProfile } from './cpu-profile';
import { interleaved, Timed } from './interleaved';
import { formatTable } from './latency-stats';

const out = (text: string) => process.stdout.write(`${text}\n`);
const TARGET_PERCENT = 10;
const CONCURRENCY = 8;

/** Machine time of one request: the serving process, the span receiver, the broker and the data stores. */
function machineMsPerRequest(t: Timed, server: string): number {
  const pid = (name: string) => t.byPid?.get(name) ?? 0;
  const group = (name: 'rabbitmq' | 'postgres' | 'redis') => t.byProcess?.get(name) ?? 0;
  return pid(server) + pid('receiver') + group('rabbitmq') + group('postgres') + group('redis');
}

export async function benchTracing(options: { quick: boolean; amqpUrl: string; profile: 'on-fail' | 'always' | 'never' }): Promise<void> {
  const urls = {
    postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const id = `bench_trace_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const ids = { off: `${id}_off`, on: `${id}_on` };
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  const total = options.quick ? 2_000 : 12_000;
  const jwtSettings = { JWT_SECRET: randomBytes(32).toString('base64url'), JWT_ISSUER: 'bench-issuer', JWT_AUDIENCE: 'bench-audience' };
  out(
    `\ntracing on (OTLP/HTTP to a loopback receiver) vs off: guarded reads, ${CONCURRENCY} in flight, servers in their own processes — databases ${ids.off}, ${ids.on}`,
  );
  const dbs: TestDatabase[] = [];
  const servers: ChildProcess[] = [];
  try {
    const receiver = await startListeningServer('otlp-receiver', {});
    servers.push(receiver.child);
    // One database, queue prefix and key prefix each: neither server may answer the other's decisions.
    const envOf = async (name: string) => {
      const db = await createTestDatabase(urls.postgres, name);
      dbs.push(db);
      const ownDir = join(dataDir, name);
      mkdirSync(ownDir);
      return { ...benchRunEnv(name, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, ownDir), ...jwtSettings };
    };
    const off = await startListeningServer('guarded-read', { ...(await envOf(ids.off)), OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    servers.push(off.child);
    const on = await startListeningServer('guarded-read', {
      ...(await envOf(ids.on)),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
      OTEL_SERVICE_NAME: 'bench-guarded-read',
    });
    servers.push(on.child);

    const token = signAccessToken(
      { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT },
      { secret: jwtSettings.JWT_SECRET, issuer: jwtSettings.JWT_ISSUER, audience: jwtSettings.JWT_AUDIENCE },
    );
    let unexpected = 0;
    const read = (port: number | undefined) => async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/authorization/roles`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) unexpected++;
    };
    const [untraced, traced] = await interleaved([read(off.port), read(on.port)], total, CONCURRENCY, {
      warmup: options.quick ? 100 : 500,
      pids: { off: off.child.pid as number, on: on.child.pid as number, receiver: receiver.child.pid as number },
    });
    if (unexpected > 0) throw new Error(`${unexpected} reads were not answered 200`);

    const machine = { off: machineMsPerRequest(untraced, 'off'), on: machineMsPerRequest(traced, 'on') };
    const row = (what: string, t: Timed, server: 'off' | 'on') => ({
      tracing: what,
      requests: t.count,
      'p50 ms': t.p50,
      'p99 ms': t.p99,
      'server cpu ms/req': (t.byPid?.get(server) ?? 0).toFixed(3),
      'receiver cpu ms/req': (t.byPid?.get('receiver') ?? 0).toFixed(3),
      'rabbitmq / postgres / redis ms/req': (['rabbitmq', 'postgres', 'redis'] as const).map((g) => (t.byProcess?.get(g) ?? 0).toFixed(3)).join(' / '),
      'machine ms/req': machine[server].toFixed(3),
    });
    out(formatTable([row('off', untraced, 'off'), row('on, exporting', traced, 'on')]));
    const percent = (machine.on / machine.off - 1) * 100;
    const met = percent <= TARGET_PERCENT;
    out(
      `machine time per request with tracing on: ${percent >= 0 ? '+' : ''}${percent.toFixed(1)} % (target ≤ ${TARGET_PERCENT} %: ${met ? 'met' : 'NOT met'})`,
    );
    if (options.profile === 'always' || (options.profile === 'on-fail' && !met)) {
      const calls = options.quick ? 500 : 2_000;
      const offProfile = await profileServer(off.child, calls, read(off.port), CONCURRENCY);
      const onProfile = await profileServer(on.child, calls, read(on.port), CONCURRENCY);
      out(`\n${calls} reads at ${CONCURRENCY} in flight: busy time of each server's main thread per read by where it was spent (V8 sampling profile)`);
      out(
        formatProfile([
          { label: 'tracing off', profile: offProfile },
          { label: 'tracing on', profile: onProfile },
        ]),
      );
    }
    out(
      `bench-result ${JSON.stringify({ row: 'tracing', measure: 'machine time per guarded read, tracing on vs off (%)', value: Number(percent.toFixed(1)), target: TARGET_PERCENT, met })}`,
    );
  } finally {
    const { attempt, problems } = teardownSteps();
    for (const server of servers.reverse()) await attempt('server', () => stopServer(server));
    for (const db of dbs) await attempt('database', () => db.drop());
    for (const name of [ids.off, ids.on]) {
      await attempt('redis keys', () => deleteRedisKeys(urls.redis, `${name}:`));
      await attempt('rabbitmq topology', () => deleteTopology(options.amqpUrl, `${name}.`));
    }
    rmSync(dataDir, { recursive: true, force: true });
    out(
      problems.length === 0
        ? `teardown: servers stopped; databases dropped; Redis keys and RabbitMQ queues of ${id} deleted`
        : `teardown problems: ${problems.join('; ')}`,
    );
  }
}

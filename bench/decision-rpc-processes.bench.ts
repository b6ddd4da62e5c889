/**
 * `authz.decide` over RabbitMQ against the echo floor, with each server in a process of its own
 * (`bench-server.process.ts`), as the fleet runs when deployed: the client loop here, the
 * authz-decision and policy-management apps in one child, the echo server in another. Same
 * question, policy, cache hit and audit as `decision-rpc.bench.ts`, timed in alternating slices.
 * A third call times the echo served as a platform service in the decision server's process
 * (`platformEchoService`), which splits the ratio into what any service process pays per message
 * and what the decision itself adds.
 *
 * The CPU per call of each process is reported. On this 2-core machine the client, both servers,
 * RabbitMQ, PostgreSQL and Redis still share the cores, so this shows how the ratio changes when
 * client and server work can run at the same time, not what a machine with cores to spare would
 * give.
 */
import { ChildProcess } from 'node:child_process';
import { profileServer, startServer, stopServer, teardownSteps, benchRunEnv } from './bench-processes';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { AuthzRpc } from '@lp/contracts';
import { createRpcClient, RpcClient } from '@lp/platform/messaging';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { BENCH_DECISION_MESSAGE, deleteTopology, ECHO_PAYLOAD } from './decision-bench-stack';
import { formatProfile } from './cpu-profile';
import { interleaved, sliceRatios, Timed } from './interleaved';
import { formatTable } from './latency-stats';

export interface DecisionRpcProcessesOptions {
  sizes: { c1: number; c64: number };
  amqpUrl: string;
  postgresUrl?: string;
  redisUrl?: string;
}

const MAX_RATIO = 1.5;
/** Alternating slices per concurrency; the verdict is the median of the per-slice p50 ratios (issue 11: at least 5). */
const ROUNDS = 6;
const WARMUP = 200;
const TIMEOUT_MS = 10_000;
const out = (text: string) => process.stdout.write(`${text}\n`);

export async function benchDecisionRpcProcesses(options: DecisionRpcProcessesOptions): Promise<void> {
  const urls = {
    postgres: options.postgresUrl || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: options.redisUrl || process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const id = `bench_procs_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  out(`\nauthz.decide vs the echo floor with each server in its own process — database ${id}, AMQP_PREFIX ${id}. (echo: ${id}_echo.), REDIS_KEY_PREFIX ${id}:`);
  // The decision server inherits AUDIT_DURABILITY: run the bench once per mode to compare them.
  out(`audit durability: ${process.env.AUDIT_DURABILITY ?? 'batched (the default outside NODE_ENV=production)'}`);
  let db: TestDatabase | undefined;
  let decisionServer: ChildProcess | undefined;
  let echoServer: ChildProcess | undefined;
  const clients: RpcClient[] = [];
  try {
    db = await createTestDatabase(urls.postgres, id);
    [decisionServer, echoServer] = await Promise.all([
      startServer('decision', benchRunEnv(id, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, dataDir)),
      startServer('echo', { AMQP_URL: options.amqpUrl, AMQP_PREFIX: `${id}_echo.` }),
    ]);
    const decide = createRpcClient({ kind: 'rabbitmq', url: options.amqpUrl, prefix: `${id}.` });
    const echo = createRpcClient({ kind: 'rabbitmq', url: options.amqpUrl, prefix: `${id}_echo.` }, { routes: { bench: 'bench' } });
    const platformEcho = createRpcClient({ kind: 'rabbitmq', url: options.amqpUrl, prefix: `${id}.` }, { routes: { bench: 'bench-echo' } });
    clients.push(decide, echo, platformEcho);

    let asked = 0;
    let unexpected = 0;
    const ask = async () => {
      asked++;
      const result = await decide.call(AuthzRpc.decide, BENCH_DECISION_MESSAGE, { timeoutMs: TIMEOUT_MS });
      if (result.outcome !== 'Permit' || (asked > 1 && !result.cached)) unexpected++;
    };
    const echoCall = () => echo.send('bench.echo', ECHO_PAYLOAD, { timeoutMs: TIMEOUT_MS });
    const platformEchoCall = () => platformEcho.send('bench.echo', ECHO_PAYLOAD, { timeoutMs: TIMEOUT_MS });
    await ask();
    // What a guard receives per call, against the same answer with the per-evaluator reasons asked for.
    const lean = JSON.stringify(await decide.call(AuthzRpc.decide, BENCH_DECISION_MESSAGE, { timeoutMs: TIMEOUT_MS })).length;
    const withReasons = JSON.stringify(
      await decide.call(
        AuthzRpc.decide,
        { ...BENCH_DECISION_MESSAGE, payload: { ...BENCH_DECISION_MESSAGE.payload, withReasons: true } },
        { timeoutMs: TIMEOUT_MS },
      ),
    ).length;
    const echoBytes = JSON.stringify(await echoCall()).length;
    asked += 2;

    const pids = { decision: decisionServer.pid as number, echo: echoServer.pid as number };
    const rows: Array<Record<string, string | number>> = [];
    const verdicts: string[] = [];
    for (const [concurrency, total] of [
      [1, options.sizes.c1],
      [64, options.sizes.c64],
    ] as const) {
      const [echoTimed, decideTimed, platformEchoTimed] = await interleaved([echoCall, ask, platformEchoCall], total, concurrency, {
        warmup: WARMUP,
        pids,
        rounds: ROUNDS,
      });
      const cpu = (t: Timed, server: 'decision' | 'echo') =>
        [t.cpuMsPerCall, t.byPid?.get(server) ?? 0, t.byProcess?.get('rabbitmq') ?? 0, t.byProcess?.get('postgres') ?? 0, t.byProcess?.get('redis') ?? 0]
          .map((ms) => ms.toFixed(3))
          .join(' / ');
      const row = (call: string, t: Timed, server: 'decision' | 'echo') => ({
        call,
        concurrency,
        calls: t.count,
        'p50 ms': t.p50,
        'p99 ms': t.p99,
        'ops/s': Math.round(t.opsPerSecond),
        'CPU ms/call: client / server process / rabbitmq / postgres / redis': cpu(t, server),
        'machine ms/call': t.machineMsPerCall?.toFixed(3) ?? '-',
      });
      rows.push(
        row('rpc echo (own process)', echoTimed, 'echo'),
        row('authz.decide (own process, cache hit, audit)', decideTimed, 'decision'),
        row('rpc echo as a platform service (decision server process)', platformEchoTimed, 'decision'),
      );
      const { ratios, median, min, max } = sliceRatios(decideTimed, echoTimed);
      const serverUs = (t: Timed, server: 'decision' | 'echo') => ((t.byPid?.get(server) ?? 0) * 1000).toFixed(0);
      verdicts.push(
        `decide p50 / echo p50 at concurrency ${concurrency}, servers in their own processes: median ${median.toFixed(2)}x over ${ratios.length} slices ` +
          `(range ${min.toFixed(2)}–${max.toFixed(2)}; pooled ${(decideTimed.p50 / echoTimed.p50).toFixed(2)}x) → ${median <= MAX_RATIO ? 'within' : 'over'} ${MAX_RATIO}x; ` +
          `server CPU µs/call: decide ${serverUs(decideTimed, 'decision')}, echo ${serverUs(echoTimed, 'echo')}, platform echo ${serverUs(platformEchoTimed, 'decision')}`,
      );
    }
    out(formatTable(rows));
    out(
      'CPU ms/call: this process (the clients), the server process asked, and the RabbitMQ, PostgreSQL and Redis processes; machine = busy time of all CPUs. ' +
        'The platform-service echo runs in the decision server process with the RPC enhancers every service has: what it costs over the bare echo is the platform per message, what decide costs over it is the decision itself.',
    );
    out(`reply bytes (JSON): authz.decide ${lean} (lean, the default), ${withReasons} with withReasons: true; echo ${echoBytes}`);
    for (const line of verdicts) out(line);
    if (process.env.BENCH_PROFILE === 'always') {
      const calls = Math.min(options.sizes.c64, 10_000);
      const decisionProfile = await profileServer(decisionServer, calls, ask);
      const echoProfile = await profileServer(echoServer, calls, echoCall);
      const platformEchoProfile = await profileServer(decisionServer, calls, platformEchoCall);
      out(
        `\nconcurrency 64, ${calls} calls each: busy time of the server process's main thread per call by where it was spent (V8 sampling profile, as in the decide bench)`,
      );
      out(
        formatProfile([
          { label: 'authz-decision server', profile: decisionProfile },
          { label: 'echo server', profile: echoProfile },
          { label: 'platform echo (decision server)', profile: platformEchoProfile },
        ]),
      );
    }
    if (unexpected > 0) throw new Error(`${unexpected} of ${asked} answers were not the cached Permit`);

    await stopServer(decisionServer); // drains the audit writer
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    try {
      const [{ n }] = (await sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit`)).rows as [{ n: number }];
      out(`answers: ${asked} decisions, all the cached Permit after the first; audit: ${n} rows after the server stopped → ${n === asked ? 'OK' : 'MISMATCH'}`);
    } finally {
      await sql.end();
    }
  } finally {
    const { attempt, problems } = teardownSteps();
    for (const client of clients) await attempt('rpc client', () => client.close());
    if (decisionServer) await attempt('decision server', () => stopServer(decisionServer!));
    if (echoServer) await attempt('echo server', () => stopServer(echoServer!));
    if (db) await attempt('database', () => db!.drop());
    await attempt('redis keys', () => deleteRedisKeys(urls.redis, `${id}:`));
    await attempt('rabbitmq topology', () => deleteTopology(options.amqpUrl, `${id}.`));
    await attempt('echo topology', () => deleteTopology(options.amqpUrl, `${id}_echo.`));
    rmSync(dataDir, { recursive: true, force: true });
    out(
      problems.length === 0
        ? `teardown: servers stopped; database dropped; Redis keys and RabbitMQ queues of ${id} deleted`
        : `teardown problems: ${problems.join('; ')}`,
    );
  }
}

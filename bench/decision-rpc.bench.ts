/**
 * `authz.decide` over RabbitMQ, answered from the decision cache with the audit on, against the
 * RPC echo floor measured in the same run (issue requirement: p50 at most 1.5× the echo p50, at
 * concurrency 1 and 64; p99 reported).
 *
 * The real services on the production profile, each on names of its own that are removed at the
 * end: policy-management (owner of the `authz` schema: its migrations create the fact tables) and
 * authz-decision as Nest apps (`createServiceApp`) on a fresh PostgreSQL database, RabbitMQ under a
 * unique AMQP_PREFIX and Redis under a unique REDIS_KEY_PREFIX. One permission, one role, its
 * role-permission and one user-role make the request a Permit; one call stores it in the cache.
 * The client is a standalone `RabbitMqRpcClient` built as the echo floor's is, so the two round
 * trips differ only in what the server does.
 *
 * The verdict is against the echo timed in alternating slices with the decisions (same process, same
 * warm JIT, the apps running, a load change hits both alike); the ratio to the floor `run.ts`
 * measured at the start of the run, before anything else ran, is printed beside it. CPU per call
 * is reported for this process, the machine, and each server process group (RabbitMQ, PostgreSQL,
 * Redis): on this machine they all share the same cores, so at concurrency 64 the ratio follows
 * the CPU each call costs the whole machine.
 *
 * Checked during the run: every measured answer is a Permit with `cached: true`, and after the
 * audit writer's flush `authz_audit.decision_audit` holds one row per decision asked.
 *
 * When a ratio fails (or with `profile: 'always'`) a profiling pass follows on the same apps:
 * round trip vs server time vs handler time vs Redis calls at concurrency 1, a V8 CPU profile per
 * call at 64, and what-ifs that remove one cause at a time (bench-side patches of the running
 * app, nothing in libs changed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AuthzRpc, DecisionReply } from '@lp/contracts';
import { InMemoryKeyValueCache, KeyValueCache, RevisionCounters, RevisionStamp } from '@lp/platform/cache';
import { createRpcClient, MessagingProfile, RpcClient } from '@lp/platform/messaging';
import { createServiceApp, PlatformRuntime, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';
import { formatTable, LatencySummary, measure, summarize } from './latency-stats';
import type { EchoResult } from './rpc-echo.bench';
import { cpuProfile, formatProfile } from './cpu-profile';
import { EchoServer, startEchoServer } from './echo-server';
import { cpuCell, INTERLEAVE_ROUNDS, interleaved, processCell, Timed } from './interleaved';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { BENCH_DECISION_MESSAGE as message, deleteTopology, ECHO_PAYLOAD, seedBenchPolicy } from './decision-bench-stack';
import { DecisionAuditWriter, DecisionCache, DecisionEngine, DecisionService } from '@lp/service/authz-decision';

export interface DecisionRpcOptions {
  quick: boolean;
  sizes: { c1: number; c64: number };
  /** The RabbitMQ echo floor of this run (`benchRpcEcho` over RabbitMQ). */
  echo: readonly EchoResult[];
  amqpUrl: string;
  postgresUrl?: string;
  redisUrl?: string;
  /** Profile where the time goes when a ratio fails (default), always, or never. */
  profile?: 'on-fail' | 'always' | 'never';
}

export interface DecisionRpcRow extends LatencySummary {
  concurrency: number;
  /** p50 of the echo timed in alternating slices with the decisions (the verdict's floor). */
  echoP50: number;
  ratio: number;
  /** Against the floor `run.ts` measured at the start of the run, before the apps ran (for reference). */
  startFloorRatio: number;
  pass: boolean;
}

export interface DecisionRpcResult {
  rows: DecisionRpcRow[];
  decisions: number;
  auditRows: number;
  notCached: number;
}

const MAX_RATIO = 1.5;
const WARMUP = 200; // as the echo floor
const TIMEOUT_MS = 10_000; // as the echo floor
const out = (text: string) => process.stdout.write(`${text}\n`);

/** Everything the suite started, so teardown can stop whatever got started, in reverse. */
interface Stack {
  id: string;
  dataDir?: string;
  db?: TestDatabase;
  runtime?: PlatformRuntime;
  policy?: ServiceApp;
  decision?: ServiceApp;
  client?: RpcClient;
}

async function standUp(stack: Stack, options: DecisionRpcOptions, urls: { postgres: string; redis: string }): Promise<void> {
  stack.dataDir = mkdtempSync(join(tmpdir(), `${stack.id}-`));
  stack.db = await createTestDatabase(urls.postgres, stack.id);
  stack.runtime = await startPlatformRuntime('bench-decision', {
    DATABASE_URL: stack.db.url,
    AMQP_URL: options.amqpUrl,
    AMQP_PREFIX: `${stack.id}.`,
    REDIS_URL: urls.redis,
    REDIS_KEY_PREFIX: `${stack.id}:`,
    JWT_SECRET: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'silent',
    DATA_DIR: stack.dataDir, // the audit spool directory lives under it
  });
  stack.policy = await createServiceApp(policyManagementService, stack.runtime);
  stack.decision = await createServiceApp(authzDecisionService, stack.runtime);

  await seedBenchPolicy(stack.policy.app.get(DataSource));

  const profile: MessagingProfile = { kind: 'rabbitmq', url: options.amqpUrl, prefix: `${stack.id}.` };
  stack.client = createRpcClient(profile); // default routes: authz → authz-decision
}

async function tearDown(stack: Stack, urls: { amqp: string; redis: string }): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (what: string, step: () => Promise<unknown>) => {
    try {
      await step();
    } catch (error) {
      problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  if (stack.client) await attempt('rpc client', () => stack.client!.close());
  if (stack.decision) await attempt('authz-decision app', () => stack.decision!.app.close());
  if (stack.policy) await attempt('policy-management app', () => stack.policy!.app.close());
  if (stack.runtime) await attempt('runtime', () => stack.runtime!.close());
  if (stack.db) await attempt('database', () => stack.db!.drop());
  await attempt('redis keys', () => deleteRedisKeys(urls.redis, `${stack.id}:`));
  await attempt('rabbitmq topology', () => deleteTopology(urls.amqp, `${stack.id}.`));
  if (stack.dataDir) await attempt('data dir', async () => rmSync(stack.dataDir!, { recursive: true, force: true }));
  return problems;
}

/** Counts every decision asked and every answer that is not the cached Permit. */
class Asker {
  asked = 0;
  notPermit = 0;
  notCached = 0;
  firstUnexpected?: DecisionReply;

  constructor(private readonly client: RpcClient) {}

  async ask(expectCached: boolean): Promise<DecisionReply> {
    this.asked++;
    const result = await this.client.call(AuthzRpc.decide, message, { timeoutMs: TIMEOUT_MS });
    if (!result.permitted || result.outcome !== 'Permit') {
      this.notPermit++;
      this.firstUnexpected ??= result;
    } else if (expectCached && result.cached !== true) {
      this.notCached++;
    }
    return result;
  }
}

async function waitForAuditRows(sql: DataSource, writer: DecisionAuditWriter, expected: number, timeoutMs: number): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  await writer.flush();
  const deadline = Date.now() + timeoutMs;
  let rows = 0;
  for (;;) {
    rows = Number((await sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit`))[0].n);
    if (rows >= expected || Date.now() > deadline) break;
    await sleep(50);
    await writer.flush();
  }
  return { rows, ms: performance.now() - started };
}

/** Time spent inside `DecisionService.decide` and in the cache ports it calls, per decision. */
interface StageTimes {
  handler: number[];
  lookup: number[];
  dataScope: number[];
  auditRecord: number[];
  redisCalls: number;
  redisMs: number[];
}

/**
 * Wraps the decision service's collaborators on the running app (bench-side instrumentation, undone
 * by the returned function): the handler, the cache lookup, the DataScope recompute, the audit
 * enqueue, and every KeyValueCache / RevisionCounters call (each one a Redis round trip).
 */
function instrument(app: ServiceApp['app']): { times: StageTimes; undo: () => void } {
  const times: StageTimes = { handler: [], lookup: [], dataScope: [], auditRecord: [], redisCalls: 0, redisMs: [] };
  const undo: Array<() => void> = [];
  const wrap = <T extends object>(target: T, method: keyof T & string, onTime: (ms: number) => void) => {
    const original = target[method] as unknown as (...args: unknown[]) => unknown;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const t0 = performance.now();
      const value = original.apply(this, args);
      if (value instanceof Promise) return value.finally(() => onTime(performance.now() - t0));
      onTime(performance.now() - t0);
      return value;
    };
    Object.defineProperty(target, method, { value: wrapped, configurable: true, writable: true });
    undo.push(() => delete (target as Record<string, unknown>)[method]);
  };
  const redis = (ms: number) => {
    times.redisCalls++;
    times.redisMs.push(ms);
  };
  wrap(app.get(DecisionService), 'decide', (ms) => times.handler.push(ms));
  wrap(app.get(DecisionCache), 'lookup', (ms) => times.lookup.push(ms));
  wrap(app.get(DecisionEngine), 'resolveDataScope', (ms) => times.dataScope.push(ms));
  wrap(app.get(DecisionAuditWriter), 'record', (ms) => times.auditRecord.push(ms));
  const cache = app.get(KeyValueCache);
  const revisions = app.get(RevisionCounters);
  for (const m of ['get', 'set', 'getMany'] as const) wrap(cache, m, redis);
  wrap(revisions, 'read', redis);
  return { times, undo: () => undo.reverse().forEach((u) => u()) };
}

/**
 * Times each request inside the RPC server of a Nest app or microservice: from the moment the
 * transport hands it the AMQP message (`handleMessage`) to the moment it writes the reply
 * (`sendMessage`), matched by correlation id. Bench-side wrapping of the server instance Nest
 * keeps (a private field), undone by the returned function.
 */
function timeServer(microservice: unknown): { samples: number[]; undo: () => void } {
  const server = (microservice as { serverInstance?: Record<string, unknown> }).serverInstance;
  if (!server || typeof server.handleMessage !== 'function' || typeof server.sendMessage !== 'function') {
    throw new Error('no RMQ server instance to time');
  }
  const arrived = new Map<string, number>();
  const samples: number[] = [];
  const handleMessage = server.handleMessage as (message: { properties?: { correlationId?: string } }, ...rest: unknown[]) => unknown;
  const sendMessage = server.sendMessage as (message: unknown, replyTo: unknown, correlationId: string, ...rest: unknown[]) => unknown;
  server.handleMessage = function (this: unknown, message: { properties?: { correlationId?: string } }, ...rest: unknown[]) {
    const id = message?.properties?.correlationId;
    if (id) arrived.set(id, performance.now());
    return handleMessage.call(this, message, ...rest);
  };
  server.sendMessage = function (this: unknown, message: unknown, replyTo: unknown, correlationId: string, ...rest: unknown[]) {
    const value = sendMessage.call(this, message, replyTo, correlationId, ...rest);
    const t0 = arrived.get(correlationId);
    if (t0 !== undefined) {
      samples.push(performance.now() - t0);
      arrived.delete(correlationId);
    }
    return value;
  };
  return {
    samples,
    undo: () => {
      delete server.handleMessage;
      delete server.sendMessage;
    },
  };
}

const p50 = (samples: number[]) => summarize(samples, 1).p50;

export async function benchDecisionRpc(options: DecisionRpcOptions): Promise<DecisionRpcResult> {
  const urls = {
    amqp: options.amqpUrl,
    postgres: options.postgresUrl || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: options.redisUrl || process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const stack: Stack = { id: `bench_decide_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}` };
  out(
    `\nauthz.decide over RabbitMQ (cache hit, audit on) vs the RPC echo floor of this run — database ${stack.id}, AMQP_PREFIX ${stack.id}., REDIS_KEY_PREFIX ${stack.id}:`,
  );
  let result: DecisionRpcResult | undefined;
  let failure: unknown;
  let echoServer: EchoServer | undefined;
  const echoPrefix = `${stack.id}_echo.`;
  try {
    await standUp(stack, options, urls);
    const decisionApp = stack.decision!.app;
    const asker = new Asker(stack.client!);
    // The floor's server once more, next to the apps, for the adjacent floor and the profile.
    echoServer = await startEchoServer({ kind: 'rabbitmq', url: options.amqpUrl, prefix: echoPrefix });
    const echoCall = () => echoServer!.client.send('bench.echo', ECHO_PAYLOAD, { timeoutMs: TIMEOUT_MS });

    const first = await asker.ask(false);
    const second = await asker.ask(true);
    if (first.cached || !second.cached) throw new Error(`cache not warming: first call cached=${first.cached}, second cached=${second.cached}`);
    out(`warm-up: first answer ${first.outcome} cached=${first.cached} dataScope=${JSON.stringify(first.dataScope)}; second cached=${second.cached}`);

    const rows: DecisionRpcRow[] = [];
    const table: Array<Record<string, string | number>> = [];
    for (const [concurrency, total] of [
      [1, options.sizes.c1],
      [64, options.sizes.c64],
    ] as const) {
      const floor = options.echo.find((e) => e.concurrency === concurrency);
      if (!floor) throw new Error(`no RabbitMQ echo floor at concurrency ${concurrency} in this run`);
      // The verdict's floor is the echo timed in alternating slices with the decisions, on the same
      // warm process with the apps running: the start-of-run floor ran before anything else did.
      const [echo, decide] = await interleaved([echoCall, () => asker.ask(true)], total, concurrency, { warmup: WARMUP });
      const ratio = decide.p50 / echo.p50;
      const startFloorRatio = decide.p50 / floor.p50;
      rows.push({
        concurrency,
        count: decide.count,
        p50: decide.p50,
        p99: decide.p99,
        opsPerSecond: decide.opsPerSecond,
        echoP50: echo.p50,
        ratio,
        startFloorRatio,
        pass: ratio <= MAX_RATIO,
      });
      const line = (call: string, s: LatencySummary, t?: Timed) => ({
        call,
        concurrency,
        calls: s.count,
        'p50 ms': s.p50,
        'p99 ms': s.p99,
        'ops/s': Math.round(s.opsPerSecond),
        'CPU ms/call: node / machine': t ? cpuCell(t) : '-',
        'by process: node / rabbitmq / postgres / redis': t?.byProcess ? processCell(t.byProcess) : '-',
      });
      table.push(
        line('rpc echo (floor, start of run)', floor),
        line('rpc echo (alternating with decide)', echo, echo),
        line('authz.decide (cache hit, audit)', decide, decide),
      );
    }
    if (asker.notPermit > 0) throw new Error(`${asker.notPermit} answers were not the Permit, e.g. ${JSON.stringify(asker.firstUnexpected)}`);

    const writer = decisionApp.get(DecisionAuditWriter);
    const sql = decisionApp.get(DataSource);
    const audit = await waitForAuditRows(sql, writer, asker.asked, 30_000);
    const [counts] = await sql.query(
      `SELECT count(*) FILTER (WHERE cached)::int AS cached, count(*) FILTER (WHERE outcome = 'Permit')::int AS permit FROM authz_audit.decision_audit`,
    );

    out(`\n${formatTable(table)}`);
    out(
      `Echo and decide timed in ${INTERLEAVE_ROUNDS} alternating slices each, after ${WARMUP} untimed calls of each, so load changes hit both alike. ` +
        `CPU ms/call: node = process.cpuUsage() of this process (client, apps, pg and ioredis clients, V8 and libuv threads); ` +
        `machine = busy time of all CPUs from /proc/stat; by process = CPU of each server process group from /proc/<pid>/stat ` +
        `(on this machine client, apps, broker and databases share the same cores).`,
    );
    for (const r of rows) {
      out(
        `decide p50 / echo p50 at concurrency ${r.concurrency}: ${r.ratio.toFixed(2)}x → ${r.pass ? 'PASS' : 'FAIL'} ` +
          `(issue requires <= ${MAX_RATIO}x; decide p99 ${r.p99.toFixed(3)} ms; against the start-of-run floor: ${r.startFloorRatio.toFixed(2)}x)`,
      );
    }
    out(
      `answers: ${asker.asked} decisions asked (2 to warm the cache, ${2 * WARMUP} untimed, ${rows.reduce((n, r) => n + r.count, 0)} timed), ` +
        `all Permit; not cached: ${asker.notCached} of the ${asker.asked - 1} after the first`,
    );
    out(
      `audit: ${audit.rows} rows in authz_audit.decision_audit for ${asker.asked} decisions (${counts.cached} cached, ${counts.permit} Permit) ` +
        `after flush, ${audit.ms.toFixed(0)} ms → ${audit.rows === asker.asked ? 'OK' : 'MISMATCH'}`,
    );

    const failed = rows.some((r) => !r.pass);
    if (options.profile === 'always' || (failed && options.profile !== 'never')) {
      await profileDecide(decisionApp, asker, echoCall, echoServer.server, options);
    }
    result = { rows, decisions: asker.asked, auditRows: audit.rows, notCached: asker.notCached };
  } catch (error) {
    failure = error;
  } finally {
    const problems: string[] = [];
    if (echoServer) {
      await echoServer.close().catch((e: unknown) => problems.push(`echo server: ${String(e)}`));
      await deleteTopology(urls.amqp, echoPrefix).catch((e: unknown) => problems.push(`echo topology: ${String(e)}`));
    }
    problems.push(...(await tearDown(stack, urls)));
    out(
      problems.length === 0
        ? `teardown: apps, runtime, clients closed; database dropped; Redis keys and RabbitMQ queues of ${stack.id} deleted`
        : `teardown problems: ${problems.join('; ')}`,
    );
  }
  if (failure !== undefined || !result) throw failure;
  return result;
}

/**
 * Where the time of a cached decision goes (runs only after the timed part, on the same apps):
 * 1. concurrency 1, instrumented: round trip vs time inside `DecisionService.decide`, split into
 *    the cache lookup, the DataScope recompute and the audit enqueue, plus the Redis calls made;
 * 2. concurrency 64: a V8 CPU profile of this process per call, by package, for decide and for the
 *    echo (the floor's bare Nest microservice on the same broker).
 */
async function profileDecide(
  app: ServiceApp['app'],
  asker: Asker,
  echoCall: () => Promise<unknown>,
  echoMicroservice: unknown,
  options: DecisionRpcOptions,
): Promise<void> {
  out(`\nprofile: where a cached decision's time goes (a separate pass after the timed runs; the instrumentation adds a little)`);
  const calls = options.quick ? 300 : 2_000;
  const timeRtt = async (call: () => Promise<unknown>) => {
    const rtt: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      await call();
      rtt.push(performance.now() - t0);
    }
    return rtt;
  };
  const echoServerTimes = timeServer(echoMicroservice);
  let echoRtt: number[];
  try {
    echoRtt = await timeRtt(echoCall);
  } finally {
    echoServerTimes.undo();
  }
  const [decisionMicroservice] = app.getMicroservices();
  const decideServerTimes = timeServer(decisionMicroservice);
  const { times, undo } = instrument(app);
  let rtt: number[];
  try {
    rtt = await timeRtt(() => asker.ask(true));
  } finally {
    undo();
    decideServerTimes.undo();
  }
  const handler = p50(times.handler);
  const decideServer = p50(decideServerTimes.samples);
  const echoServer = p50(echoServerTimes.samples);
  const row = (what: string, decide: number | undefined, echo: number | undefined) => ({
    [`concurrency 1, p50 of ${calls} calls, ms`]: what,
    'authz.decide': decide === undefined ? '' : decide.toFixed(3),
    'rpc echo': echo === undefined ? '' : echo.toFixed(3),
  });
  out(
    formatTable([
      row('round trip', p50(rtt), p50(echoRtt)),
      row('  client + broker, both ways (round trip - server)', p50(rtt) - decideServer, p50(echoRtt) - echoServer),
      row('  server: AMQP message in → reply written', decideServer, echoServer),
      row('    Nest pipeline (guards, interceptors, pipes, (de)serialization)', decideServer - handler, echoServer),
      row('    DecisionService.decide', handler, undefined),
      row('      DecisionCache.lookup (revisions from the snapshot, entry from the near copy)', p50(times.lookup), undefined),
      row('      engine.resolveDataScope (scope facts and relations, near copies)', p50(times.dataScope), undefined),
      row('      DecisionAuditWriter.record (enqueue)', p50(times.auditRecord), undefined),
      row('      one Redis call (p50 of all)', p50(times.redisMs), undefined),
    ]),
  );
  out(
    `differences of p50s are approximate. Redis calls per cached decision: ${(times.redisCalls / calls).toFixed(2)} (the revision read, ` +
      `one MGET shared by every decision asked in the same round of I/O; entries come from the in-process copy).`,
  );

  const n = options.quick ? 2_000 : 10_000;
  for (let i = 0; i < WARMUP; i++) await echoCall();
  const decide = await cpuProfile(n, () => measure(() => asker.ask(true), { total: n, concurrency: 64, warmup: 0 }));
  const echo = await cpuProfile(n, () => measure(echoCall, { total: n, concurrency: 64, warmup: 0 }));
  out(
    `\nconcurrency 64, ${n} calls each: busy time of this process's main thread per call by where it was spent (V8 sampling profile, wall-clock samples; native and node-internal time charged to the package that called it)`,
  );
  out(
    formatProfile([
      { label: 'authz.decide', profile: decide },
      { label: 'rpc echo', profile: echo },
    ]),
  );

  await whatIfs(app, asker, echoCall, options);
}

/** A change made to the running decision app for one what-if measurement; returns its undo. */
type Change = () => () => void;

/** ioredis clients of the app's cache ports (private fields of the Redis adapters). */
function redisClientsOf(app: ServiceApp['app']): Redis[] {
  return [app.get(KeyValueCache), app.get(RevisionCounters)]
    .map((adapter) => (adapter as unknown as { redis?: { client?: Redis } }).redis?.client)
    .filter((client): client is Redis => client instanceof Redis);
}

/** ioredis `enableAutoPipelining` (read per command): commands issued in the same tick share one socket write. */
function autoPipelining(app: ServiceApp['app']): Change {
  return () => {
    const clients = redisClientsOf(app);
    if (clients.length !== 2) throw new Error('the decision app does not run on the Redis adapters');
    for (const client of clients) client.options.enableAutoPipelining = true;
    return () => clients.forEach((client) => (client.options.enableAutoPipelining = false));
  };
}

/**
 * Upper bound of a near cache: the cache ports answer from process memory once they have read a
 * key (entries as JSON text in an `InMemoryKeyValueCache`, revision values held as read), so the
 * hit path makes no Redis call. Not a correct cache (revisions are never re-read); a measure of
 * what the Redis round trips cost.
 */
function nearCache(app: ServiceApp['app']): Change {
  return () => {
    const cache = app.get(KeyValueCache);
    const revisions = app.get(RevisionCounters);
    const near = new InMemoryKeyValueCache({ maxEntries: 10_000 });
    const held = new Map<string, RevisionStamp>();
    const get = cache.get.bind(cache);
    const read = revisions.read.bind(revisions);
    const patch = <T extends object>(target: T, method: string, value: unknown) =>
      Object.defineProperty(target, method, { value, configurable: true, writable: true });
    patch(cache, 'get', async <T>(key: string): Promise<T | undefined> => {
      const local = await near.get<T>(key);
      if (local !== undefined) return local;
      const remote = await get<T>(key);
      if (remote !== undefined) await near.set(key, remote, 60_000);
      return remote;
    });
    patch(revisions, 'read', async (names: string[]): Promise<RevisionStamp> => {
      const key = names.join('\n');
      const local = held.get(key);
      if (local) return local;
      const remote = await read(names);
      held.set(key, remote);
      return remote;
    });
    return () => {
      delete (cache as unknown as Record<string, unknown>).get;
      delete (revisions as unknown as Record<string, unknown>).read;
    };
  };
}

/** What the audit costs (enqueue, the batched INSERTs and PostgreSQL's share of the machine): records nothing while applied. */
function auditOff(app: ServiceApp['app']): Change {
  return () => {
    const writer = app.get(DecisionAuditWriter);
    Object.defineProperty(writer, 'record', { value: () => undefined, configurable: true, writable: true });
    return () => delete (writer as unknown as Record<string, unknown>).record;
  };
}

function both(a: Change, b: Change): Change {
  return () => {
    const undoA = a();
    const undoB = b();
    return () => {
      undoB();
      undoA();
    };
  };
}

/**
 * The timed comparison again under changes applied to the running app from the bench (no code in
 * libs changed), each against an echo measured right before it: how much of the gap each cause is.
 */
async function whatIfs(app: ServiceApp['app'], asker: Asker, echoCall: () => Promise<unknown>, options: DecisionRpcOptions): Promise<void> {
  const sizes = options.quick ? { c1: 300, c64: 2_000 } : { c1: 1_000, c64: 10_000 };
  const scenarios: Array<{ name: string; change?: Change }> = [
    { name: 'as deployed (one coalesced MGET of revisions per round of requests)' },
    { name: 'ioredis enableAutoPipelining on the two cache clients', change: autoPipelining(app) },
    { name: 'no Redis call on the hit path (near-cache upper bound)', change: nearCache(app) },
    { name: 'audit off (DecisionAuditWriter.record a no-op)', change: auditOff(app) },
    { name: 'both: no Redis call and audit off (what the rest costs)', change: both(nearCache(app), auditOff(app)) },
  ];
  const rows: Array<Record<string, string | number>> = [];
  for (const scenario of scenarios) {
    const undo = scenario.change?.() ?? (() => undefined);
    try {
      for (const [concurrency, total] of [
        [1, sizes.c1],
        [64, sizes.c64],
      ] as const) {
        const [echo, decide] = await interleaved([echoCall, () => asker.ask(true)], total, concurrency, { warmup: WARMUP });
        rows.push({
          'what if': scenario.name,
          concurrency,
          'echo p50 ms': echo.p50,
          'decide p50 ms': decide.p50,
          'decide p99 ms': decide.p99,
          'decide / echo p50': `${(decide.p50 / echo.p50).toFixed(2)}x`,
          'CPU ms/call node / machine: decide': cpuCell(decide),
          echo: cpuCell(echo),
          'decide by process: node / rabbitmq / postgres / redis': decide.byProcess ? processCell(decide.byProcess) : '-',
        });
      }
    } finally {
      undo();
    }
  }
  out(
    `\nwhat-ifs: the same comparison with one cause removed at a time on the running app (bench-side patches; ${sizes.c1} / ${sizes.c64} calls ` +
      `of each, in ${INTERLEAVE_ROUNDS} alternating slices of echo and decide so load changes hit both alike)`,
  );
  out(formatTable(rows));
}

/**
 * Webhook deliveries per second: signed, sent and logged by the webhook dispatcher (claim, secret
 * decryption, both signatures, the POST, the attempt row and the delivery's state in a transaction)
 * against raw undici POSTs of the same body to the same receiver, at the same concurrency (64), in
 * the same run, alternating rounds. Each server runs in a process of its own, as deployed:
 * policy-management + authz-decision (the guard of the setup requests), the dispatcher, and a
 * plain `node:http` receiver answering 204. Deliveries are written due into `webhooks.delivery`
 * (16 subscriptions × 4 in flight each = the dispatcher's 64), so what is timed is the delivery
 * path, not the intake. Target: deliveries/s ≥ 0.5× the raw POSTs/s.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { Pool as HttpPool } from 'undici';
import { SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { signAccessToken } from '@lp/platform/auth';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { deleteTopology } from './decision-bench-stack';
import { benchRunEnv, profileServerWhile, startListeningServer, startServer, stopServer, teardownSteps } from './bench-processes';
import { formatProfile } from './cpu-profile';
import { formatTable } from './latency-stats';
import { machineBusyMs } from './interleaved';
import { cpuByProcessGroup, cpuOfPid, ProcessGroup } from './process-cpu';

const out = (text: string) => process.stdout.write(`${text}\n`);
const CONCURRENCY = 64;
const SUBSCRIPTIONS = 16;
const TARGET_RATIO = 0.5;
const ROUNDS = 2;
const payload = { ticketId: 'T-000123', title: 'Printer on fire', priority: 'high', reporter: 'ada@example.com' };

export async function benchWebhooks(options: { quick: boolean; amqpUrl: string; profile: 'on-fail' | 'always' | 'never' }): Promise<void> {
  const urls = {
    postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const id = `bench_wh_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  const perRound = options.quick ? 500 : 4_000;
  const jwtSettings = { JWT_SECRET: randomBytes(32).toString('base64url'), JWT_ISSUER: 'bench-issuer', JWT_AUDIENCE: 'bench-audience' };
  out(
    `\nWebhooks: signed, logged deliveries/s vs raw undici POSTs/s to the same receiver at c=${CONCURRENCY}, servers in their own processes — database ${id}`,
  );
  let db: TestDatabase | undefined;
  let pool: Pool | undefined;
  let http: HttpPool | undefined;
  const servers: ChildProcess[] = [];
  try {
    db = await createTestDatabase(urls.postgres, id);
    const env = benchRunEnv(id, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, dataDir);
    servers.push(await startServer('decision', env));
    const receiver = await startListeningServer('webhook-receiver', env);
    servers.push(receiver.child);
    const dispatcher = await startListeningServer('webhook-dispatcher', {
      ...env,
      ...jwtSettings,
      USER_POLICY_LIMIT: '100000000',
      WEBHOOK_POLL_INTERVAL_MS: '20',
    });
    servers.push(dispatcher.child);
    const receiverUrl = `http://127.0.0.1:${receiver.port}`;

    const token = signAccessToken(
      { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT },
      { secret: jwtSettings.JWT_SECRET, issuer: jwtSettings.JWT_ISSUER, audience: jwtSettings.JWT_AUDIENCE },
    );
    const subscriptionIds: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const response = await fetch(`http://127.0.0.1:${dispatcher.port}/api/webhooks/subscriptions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ callbackUrl: `${receiverUrl}/hooks/${i}`, eventTypes: ['ticket.*'] }),
      });
      const body = (await response.json()) as { id?: string };
      if (response.status !== 201 || !body.id) throw new Error(`creating a subscription: ${response.status} ${JSON.stringify(body)}`);
      subscriptionIds.push(body.id);
    }

    pool = new Pool({ connectionString: db.url, max: 4 });
    const dispatched = async (round: number): Promise<number> => {
      const started = Date.now();
      await pool!.query(
        `INSERT INTO "webhooks"."delivery" ("id", "tenant_id", "subscription_id", "event_id", "event_type", "payload", "occurred_at", "status", "next_attempt_at")
         SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + (n % $3)], 'bench-' || $4 || '-' || n, 'ticket.created', $5::jsonb, now(), 'pending', now()
         FROM generate_series(1, $6) AS n`,
        [SEEDED_TENANT, subscriptionIds, SUBSCRIPTIONS, round, JSON.stringify(payload), perRound],
      );
      // Done when nothing of the round is pending any more: an attempt and its delivery's new state are
      // written by one statement, so a delivery that left `pending` is logged. The probe reads the
      // partial due index only, so polling it costs the database next to nothing.
      for (;;) {
        const [row] = (await pool!.query(`SELECT EXISTS (SELECT 1 FROM "webhooks"."delivery" WHERE "status" = 'pending') AS "pending"`)).rows as Array<{
          pending: boolean;
        }>;
        if (!row!.pending) break;
        if (Date.now() - started > 300_000) throw new Error(`round ${round}: deliveries still pending after 300 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const [done] = (
        await pool!.query(`SELECT count(*)::int AS n FROM "webhooks"."delivery" WHERE "event_id" LIKE $1 AND "status" = 'succeeded'`, [`bench-${round}-%`])
      ).rows as Array<{ n: number }>;
      if (done!.n !== perRound) throw new Error(`round ${round}: ${done!.n} of ${perRound} deliveries succeeded`);
      return Date.now() - started;
    };

    http = new HttpPool(receiverUrl, { connections: CONCURRENCY, pipelining: 1 });
    const body = JSON.stringify({ eventId: randomUUID(), eventType: 'ticket.created', payload });
    const raw = async (): Promise<number> => {
      const started = Date.now();
      let next = 0;
      const worker = async () => {
        while (next++ < perRound) {
          const response = await http!.request({
            method: 'POST',
            path: `/hooks/${next % SUBSCRIPTIONS}`,
            headers: { 'content-type': 'application/json' },
            body,
          });
          await response.body.dump();
          if (response.statusCode !== 204) throw new Error(`raw POST answered ${response.statusCode}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      return Date.now() - started;
    };

    // Warm-up of both paths, then alternating rounds.
    await raw();
    await dispatched(0);
    let rawMs = 0;
    let dispatchedMs = 0;
    // CPU of each process (and the machine) while each path runs, per delivery.
    const pids = { dispatcher: dispatcher.child.pid as number, receiver: receiver.child.pid as number, bench: process.pid };
    const cpu = { raw: new Map<string, number>(), dispatched: new Map<string, number>() };
    const sample = () => {
      const groups = cpuByProcessGroup() ?? new Map<ProcessGroup, number>();
      const byName = new Map<string, number>([
        ['machine', machineBusyMs() ?? 0],
        ['postgres', groups.get('postgres') ?? 0],
      ]);
      for (const [name, pid] of Object.entries(pids)) byName.set(name, cpuOfPid(pid) ?? 0);
      return byName;
    };
    const timedPhase = async (into: Map<string, number>, phase: () => Promise<number>) => {
      const before = sample();
      const ms = await phase();
      const after = sample();
      for (const [name, value] of after) into.set(name, (into.get(name) ?? 0) + value - (before.get(name) ?? 0));
      return ms;
    };
    for (let round = 1; round <= ROUNDS; round++) {
      rawMs += await timedPhase(cpu.raw, raw);
      dispatchedMs += await timedPhase(cpu.dispatched, () => dispatched(round));
    }
    const total = perRound * ROUNDS;
    const [logged] = (await pool.query(`SELECT count(*)::int AS n FROM "webhooks"."delivery_attempt" WHERE "outcome" = 'succeeded'`)).rows as Array<{
      n: number;
    }>;
    if (logged!.n !== total + perRound) throw new Error(`expected ${total + perRound} logged attempts, found ${logged!.n}`);
    const perDelivery = (m: Map<string, number>) =>
      ['machine', 'dispatcher', 'postgres', 'receiver', 'bench'].map((name) => `${name} ${((m.get(name) ?? 0) / total).toFixed(3)}`).join(', ');
    const rawRate = (total * 1000) / rawMs;
    const dispatchedRate = (total * 1000) / dispatchedMs;
    out(
      formatTable([
        {
          path: `raw undici POST, c=${CONCURRENCY} (floor)`,
          count: total,
          'wall ms': rawMs,
          'per s': Math.round(rawRate),
          'cpu ms per delivery': perDelivery(cpu.raw),
        },
        {
          path: `dispatcher delivery (signed, logged), c=${CONCURRENCY}`,
          count: total,
          'wall ms': dispatchedMs,
          'per s': Math.round(dispatchedRate),
          'cpu ms per delivery': perDelivery(cpu.dispatched),
        },
      ]),
    );
    const ratio = dispatchedRate / rawRate;
    const verdict = ratio >= TARGET_RATIO ? 'met' : 'NOT MET';
    out(`deliveries/s / raw POSTs/s: ${ratio.toFixed(2)}x (${Math.round(dispatchedRate)} / ${Math.round(rawRate)}; target ≥ ${TARGET_RATIO}x: ${verdict})`);
    if (options.profile === 'always' || (options.profile === 'on-fail' && verdict === 'NOT MET')) {
      const profile = await profileServerWhile(dispatcher.child, perRound, () => dispatched(ROUNDS + 1));
      out(`\n${perRound} deliveries: busy time of the dispatcher process's main thread per delivery by where it was spent (V8 sampling profile)`);
      out(formatProfile([{ label: 'webhook-dispatcher', profile }]));
    }
  } finally {
    const { attempt, problems } = teardownSteps();
    if (http) await attempt('http pool', () => http!.close());
    if (pool) await attempt('pg pool', () => pool!.end());
    for (const server of servers.reverse()) await attempt('server', () => stopServer(server));
    if (db) await attempt('database', () => db!.drop());
    await attempt('redis keys', () => deleteRedisKeys(urls.redis, `${id}:`));
    await attempt('rabbitmq topology', () => deleteTopology(options.amqpUrl, `${id}.`));
    rmSync(dataDir, { recursive: true, force: true });
    out(
      problems.length === 0
        ? `teardown: servers stopped; database dropped; Redis keys and RabbitMQ queues of ${id} deleted`
        : `teardown problems: ${problems.join('; ')}`,
    );
  }
}

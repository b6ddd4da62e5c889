/**
 * Workflow task completions per second at 16 in flight (`POST /api/workflow/runtime/tasks/{id}/complete`
 * over HTTP: token, permission decision, the `workflow.runtime` gate, the instance lock, the vote, the
 * node closing, the instance ending and its outbox events in one transaction) against a floor of
 * single-row UPDATE transactions (`BEGIN; UPDATE … SET n = n + 1 WHERE id = $1; COMMIT`, 16
 * connections) on the same PostgreSQL database, in the same run, timed in alternating slices.
 * Each server runs in a process of its own, as deployed: policy-management + authz-decision and
 * workflow-engine, on PostgreSQL, RabbitMQ and Redis, in a database, queue prefix and key prefix of
 * this run's own, deleted at the end. Target: completions/s ≥ 0.3× the floor's transactions/s.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { signAccessToken } from '@lp/platform/auth';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { deleteTopology } from './decision-bench-stack';
import { benchRunEnv, profileServer, startListeningServer, startServer, stopServer, teardownSteps } from './bench-processes';
import { formatProfile } from './cpu-profile';
import { interleaved, Timed } from './interleaved';
import { formatTable, measure } from './latency-stats';

const out = (text: string) => process.stdout.write(`${text}\n`);
const CONCURRENCY = 16;
const TARGET_RATIO = 0.3;
const DEFINITION_KEY = 'bench-approval';
const FLOOR_SCHEMA = 'bench_floor';
const FLOOR_ROWS = 1_000;

/** One approval node, assigned to the seeded admin (who also starts the instances); its vote ends the instance Approved. */
const definition = {
  name: 'Bench approval',
  nodes: [{ kind: 'approval', key: 'approve', mode: 'any', assignees: [{ kind: 'user', subjects: [SEEDED_ADMIN_SUBJECT] }] }],
};

export async function benchWorkflow(options: { quick: boolean; amqpUrl: string; profile: 'on-fail' | 'always' | 'never' }): Promise<void> {
  const urls = {
    postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const id = `bench_wf_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  // Timed completions (16 × rounds) and the untimed warm-up ones before them; the floor runs as many transactions.
  const total = CONCURRENCY * (options.quick ? 20 : 200);
  const warmup = options.quick ? 20 : 100;
  const jwtSettings = { JWT_SECRET: randomBytes(32).toString('base64url'), JWT_ISSUER: 'bench-issuer', JWT_AUDIENCE: 'bench-audience' };
  out(
    `\nWorkflow: task completions/s at c=${CONCURRENCY} vs single-row UPDATE transactions/s, servers in their own processes — database ${id}, AMQP_PREFIX ${id}.`,
  );
  let db: TestDatabase | undefined;
  let pool: Pool | undefined;
  const servers: ChildProcess[] = [];
  try {
    db = await createTestDatabase(urls.postgres, id);
    const env = benchRunEnv(id, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, dataDir);
    // policy-management first: it migrates and seeds the catalog, tenant `default` and its admin.
    servers.push(await startServer('decision', env));
    // The per-caller write limit is not what is measured here.
    const engine = await startListeningServer('workflow-engine', { ...env, ...jwtSettings, USER_POLICY_LIMIT: '100000000' });
    servers.push(engine.child);

    const token = signAccessToken(
      { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT },
      { secret: jwtSettings.JWT_SECRET, issuer: jwtSettings.JWT_ISSUER, audience: jwtSettings.JWT_AUDIENCE },
    );
    const base = `http://127.0.0.1:${engine.port}/api/workflow`;
    const http = async (method: 'GET' | 'POST', path: string, expected: number[], body?: object): Promise<unknown> => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'X-Tenant-Id': SEEDED_TENANT, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (!expected.includes(response.status)) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
      return text ? JSON.parse(text) : undefined;
    };

    await http('POST', `/definitions/${DEFINITION_KEY}/deployments`, [201], { definition });
    // Starts `instances` instances 16 at a time (timed, for information: not the figure compared) and
    // returns their task ids, from the admin's todo list (nothing changes it while it is paged).
    let started = 0;
    const openTasks = async (instances: number) => {
      const starts = await measure(
        async () => {
          const businessKey = `B-${started++}`;
          await http('POST', '/runtime/instances', [201], { definitionKey: DEFINITION_KEY, businessKey });
        },
        { total: instances, concurrency: CONCURRENCY, warmup: 0 },
      );
      const taskIds = new Set<string>();
      for (let pageIndex = 0; taskIds.size < instances; pageIndex++) {
        const page = (await http('GET', `/tasks/todo?pageIndex=${pageIndex}&pageSize=100`, [200])) as { items: Array<{ id: string }> };
        if (page.items.length === 0) break;
        for (const item of page.items) taskIds.add(item.id);
      }
      if (taskIds.size !== instances) throw new Error(`expected ${instances} open tasks, the todo list has ${taskIds.size}`);
      return { starts, taskIds: [...taskIds] };
    };
    const { starts, taskIds } = await openTasks(total + warmup);
    const queue = taskIds;
    let unexpected = 0;
    const complete = async () => {
      const taskId = queue.pop();
      if (!taskId) throw new Error('ran out of open tasks');
      const answer = (await http('POST', `/runtime/tasks/${taskId}/complete`, [200], {})) as { nodeClosed?: boolean; instance?: { status?: string } };
      if (answer.nodeClosed !== true || answer.instance?.status !== 'Approved') unexpected++;
    };

    // The floor: the same database, 16 connections, one single-row UPDATE transaction each call (distinct rows: no lock waits).
    pool = new Pool({ connectionString: db.url, max: CONCURRENCY });
    await pool.query(`CREATE SCHEMA ${FLOOR_SCHEMA}`);
    await pool.query(`CREATE TABLE ${FLOOR_SCHEMA}.counter (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0)`);
    await pool.query(`INSERT INTO ${FLOOR_SCHEMA}.counter (id) SELECT generate_series(1, ${FLOOR_ROWS})`);
    let next = 0;
    const transaction = async () => {
      const client = await pool!.connect();
      try {
        await client.query('BEGIN');
        const updated = await client.query(`UPDATE ${FLOOR_SCHEMA}.counter SET n = n + 1 WHERE id = $1`, [(next++ % FLOOR_ROWS) + 1]);
        await client.query('COMMIT');
        if (updated.rowCount !== 1) unexpected++;
      } finally {
        client.release();
      }
    };

    // Warm-up: `warmup` of each (one at a time), then alternating slices of 16 in flight.
    const [floor, completions] = await interleaved([transaction, complete], total, CONCURRENCY, {
      warmup,
      pids: { 'workflow-engine': engine.child.pid as number, decision: servers[0]!.pid as number },
    });
    if (unexpected > 0) throw new Error(`${unexpected} answers were not the expected ones`);
    const row = (what: string, t: Timed) => ({
      operation: what,
      count: t.count,
      'p50 ms': t.p50,
      'p99 ms': t.p99,
      'per s': Math.round(t.opsPerSecond),
      'engine / decision cpu ms/op': `${(t.byPid?.get('workflow-engine') ?? 0).toFixed(3)} / ${(t.byPid?.get('decision') ?? 0).toFixed(3)}`,
      'machine busy ms/op': t.machineMsPerCall?.toFixed(3) ?? '-',
    });
    out(
      formatTable([
        row(`single-row UPDATE tx, c=${CONCURRENCY} (floor)`, floor),
        row(`task complete over HTTP, c=${CONCURRENCY}`, completions),
        {
          operation: `instance start over HTTP, c=${CONCURRENCY} (info)`,
          count: starts.count,
          'p50 ms': starts.p50,
          'p99 ms': starts.p99,
          'per s': Math.round(starts.opsPerSecond),
          'engine / decision cpu ms/op': '-',
          'machine busy ms/op': '-',
        },
      ]),
    );
    const ratio = completions.opsPerSecond / floor.opsPerSecond;
    const verdict = ratio >= TARGET_RATIO ? 'met' : 'NOT MET';
    out(
      `task completions/s / UPDATE tx/s: ${ratio.toFixed(2)}x (${Math.round(completions.opsPerSecond)} / ${Math.round(floor.opsPerSecond)}; target ≥ ${TARGET_RATIO}x: ${verdict})`,
    );
    if (options.profile === 'always' || (options.profile === 'on-fail' && verdict === 'NOT MET')) {
      const calls = options.quick ? 100 : 500;
      queue.push(...(await openTasks(calls)).taskIds);
      const profile = await profileServer(engine.child, calls, complete, CONCURRENCY);
      out(
        `\nconcurrency ${CONCURRENCY}, ${calls} completions: busy time of the workflow-engine process's main thread per completion by where it was spent (V8 sampling profile)`,
      );
      out(formatProfile([{ label: 'workflow-engine server', profile }]));
    }
  } finally {
    const { attempt, problems } = teardownSteps();
    if (pool) {
      await attempt('floor table', () => pool!.query(`DROP SCHEMA IF EXISTS ${FLOOR_SCHEMA} CASCADE`));
      await attempt('pg pool', () => pool!.end());
    }
    for (const server of servers.reverse()) await attempt('server', () => stopServer(server));
    if (db) await attempt('database', () => db!.drop());
    await attempt('redis keys', () => deleteRedisKeys(urls.redis, `${id}:`));
    await attempt('rabbitmq topology', () => deleteTopology(options.amqpUrl, `${id}.`));
    rmSync(dataDir, { recursive: true, force: true });
    out(
      problems.length === 0
        ? `teardown: servers stopped; floor schema and database dropped; Redis keys and RabbitMQ queues of ${id} deleted`
        : `teardown problems: ${problems.join('; ')}`,
    );
  }
}

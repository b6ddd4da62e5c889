/**
 * Scheduler overhead (issue 14): the time from a job's due tick to its owning handler starting,
 * with each server in a process of its own as deployed: operations (the scheduler) in one child,
 * policy-management and authz-decision (the owner of `policy-management.expire-grants`, and the
 * decisions its guard asks for) in another, on PostgreSQL and RabbitMQ. One job runs every second;
 * for every run, the owner's handler start (`owner_started_at`, reported by the owner's dispatcher)
 * minus its tick (`scheduled_for`) is the delay. It is set against the RPC echo floor of the same
 * run: the scheduler adds a tick's wait (at most OPERATIONS_SCHEDULER_TICK_MS), one claiming
 * transaction and one RPC hop with its guard decision.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { deleteTopology } from './decision-bench-stack';
import { startServer, stopServer, teardownSteps, benchRunEnv } from './bench-processes';
import { formatTable, LatencySummary, summarize } from './latency-stats';

export interface SchedulerBenchOptions {
  quick: boolean;
  amqpUrl: string;
  /** The RabbitMQ echo floor measured at the start of the run (concurrency 1). */
  echo: LatencySummary;
}

const JOB = 'policy-management.expire-grants';
const out = (text: string) => process.stdout.write(`${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it answers a value or `timeoutMs` passes. */
async function until<T>(what: string, timeoutMs: number, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface TickMeasure {
  /** Tick → the owner's handler start. */
  owner: LatencySummary;
  /** Tick → the execution claimed in operations (mostly the wait for the next pass). */
  dispatch: LatencySummary;
  /** Claim → the owner's handler start: the RPC hop with the owner's guard decision. */
  hop: LatencySummary;
}

async function measureAtTick(sql: Client, env: Record<string, string>, tickMs: number, runs: number): Promise<TickMeasure> {
  const operations = await startServer('operations', { ...env, OPERATIONS_SCHEDULER_TICK_MS: String(tickMs) });
  try {
    await until('the catalog seeded into ops.job_definition', 60_000, async () =>
      (await sql.query(`SELECT 1 FROM ops.job_definition WHERE job_name = $1`, [JOB])).rowCount ? true : undefined,
    );
    // Only the measured job runs: the others are stopped, as `POST /jobs/{name}/stop` would.
    await sql.query(`UPDATE ops.job_definition SET enabled = false, next_run_at = NULL WHERE job_name <> $1`, [JOB]);
    const { rows } = await sql.query(
      `UPDATE ops.job_definition SET cron = NULL, interval_seconds = 1, enabled = true, next_run_at = date_trunc('second', now()) + interval '2 seconds'
        WHERE job_name = $1 RETURNING next_run_at`,
      [JOB],
    );
    const from = (rows[0] as { next_run_at: Date }).next_run_at;
    const samples = await until(`${runs} scheduled runs of ${JOB}`, runs * 1000 + 30_000, async () => {
      const done = await sql.query(
        `SELECT extract(epoch FROM owner_started_at - scheduled_for) * 1000 AS owner_ms, extract(epoch FROM started_at - scheduled_for) * 1000 AS dispatch_ms,
                extract(epoch FROM owner_started_at - started_at) * 1000 AS hop_ms
           FROM ops.job_execution WHERE job_name = $1 AND trigger = 'schedule' AND scheduled_for >= $2 AND status = 'succeeded' AND owner_started_at IS NOT NULL
          ORDER BY scheduled_for LIMIT $3`,
        [JOB, from, runs],
      );
      return done.rowCount === runs ? (done.rows as Array<{ owner_ms: string; dispatch_ms: string; hop_ms: string }>) : undefined;
    });
    await sql.query(`UPDATE ops.job_definition SET enabled = false, next_run_at = NULL WHERE job_name = $1`, [JOB]);
    const wall = runs * 1000;
    const of = (column: 'owner_ms' | 'dispatch_ms' | 'hop_ms') =>
      summarize(
        samples.map((sample) => Number(sample[column])),
        wall,
      );
    return { owner: of('owner_ms'), dispatch: of('dispatch_ms'), hop: of('hop_ms') };
  } finally {
    await stopServer(operations);
  }
}

export async function benchScheduler(options: SchedulerBenchOptions): Promise<void> {
  const urls = {
    postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const id = `bench_sched_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  const runs = options.quick ? 8 : 30;
  out(`\nscheduler overhead: due tick → owning handler start, servers in their own processes — database ${id}, AMQP_PREFIX ${id}.`);
  let db: TestDatabase | undefined;
  let owner: ChildProcess | undefined;
  try {
    db = await createTestDatabase(urls.postgres, id);
    const env = benchRunEnv(id, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, dataDir);
    owner = await startServer('decision', env);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const rows: Array<Record<string, string | number>> = [];
      const verdicts: string[] = [];
      for (const tickMs of [250, 25]) {
        const { owner: delay, dispatch, hop } = await measureAtTick(client, env, tickMs, runs);
        const row = (what: string, m: LatencySummary) => ({ 'scheduler tick': `${tickMs} ms`, what, runs: m.count, 'p50 ms': m.p50, 'p99 ms': m.p99 });
        rows.push(row('tick → execution claimed (operations)', dispatch), row('claim → owner handler start', hop), row('tick → owner handler start', delay));
        verdicts.push(
          `tick ${tickMs} ms: the owner's handler starts p50 ${delay.p50.toFixed(1)} ms / p99 ${delay.p99.toFixed(1)} ms after its tick; ` +
            `of that, claim → handler (RPC hop + the owner's guard) p50 ${hop.p50.toFixed(1)} ms = ${(hop.p50 / options.echo.p50).toFixed(1)}x the RabbitMQ echo p50 (${options.echo.p50.toFixed(2)} ms), ` +
            `the rest is the wait for the next pass (at most ${tickMs} ms)`,
        );
      }
      out(formatTable(rows));
      for (const line of verdicts) out(line);
    } finally {
      await client.end();
    }
  } finally {
    const { attempt, problems } = teardownSteps();
    if (owner) await attempt('owner server', () => stopServer(owner!));
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

/**
 * Workflow reports (`QUERY /api/workflow/reports/<name>` over HTTP: token, permission decision, the
 * query's checks, the report's SQL aggregate, the answer) against the raw SQL aggregate of the same
 * question written plainly and run directly on the same database, in the same run, alternating.
 * Data: 100,000 instances with 5 tasks each in the seeded tenant (plus 20,000 of another tenant that
 * must not count), generated in SQL with generate_series, over half a year; each report reads the
 * whole half year. Servers run in processes of their own, as deployed (policy-management +
 * authz-decision, workflow-engine listening on HTTP), on PostgreSQL, RabbitMQ and Redis, in a
 * database, queue prefix and key prefix of this run's own, deleted at the end.
 * Target: each report's p50 ≤ 2× its raw aggregate's p50.
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
import { benchRunEnv, startListeningServer, startServer, stopServer, teardownSteps } from './bench-processes';
import { formatTable } from './latency-stats';

const out = (text: string) => process.stdout.write(`${text}\n`);
const TARGET_RATIO = 2;
const OTHER_TENANT = 'bench-other';
const DEFINITIONS = 5;
const PERIOD = { From: '2026-01-01T00:00:00Z', To: '2026-07-01T00:00:00Z' };
const REASONS = `ARRAY['too expensive', 'missing annex', 'wrong party', 'out of scope']`;

/**
 * `count` instances of `tenant` spread evenly over the period, on definitions bench-0..4: 60 %
 * Approved, 20 % Rejected (the fifth task rejects, with one of four comments), 10 % Running (the
 * fifth task Pending), 10 % Withdrawn (the fifth task Cancelled); task k opens 12 h after task k-1
 * and is decided 1 to 700 minutes after it opened. One statement per table, all in PostgreSQL.
 */
async function generate(pool: Pool, tenant: string, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO workflow.definition (tenant_id, key, created_by) SELECT $1, 'bench-' || d, 'bench' FROM generate_series(0, ${DEFINITIONS - 1}) d`,
    [tenant],
  );
  await pool.query(
    `INSERT INTO workflow.definition_version (id, tenant_id, key, version, definition, checksum, source, created_by)
     SELECT gen_random_uuid(), $1, 'bench-' || d, 1, '{"name":"bench","nodes":[]}', repeat('0', 64), 'publish', 'bench' FROM generate_series(0, ${DEFINITIONS - 1}) d`,
    [tenant],
  );
  await pool.query(
    `INSERT INTO workflow.instance (id, tenant_id, definition_key, definition_version_id, business_key, initiator, status, created_at, updated_at, ended_at)
     SELECT gen_random_uuid(), $1, v.key, v.id, 'B-' || g, 'user-' || (g % 200), s.status, s.start, s.start,
            CASE WHEN s.status <> 'Running' THEN s.start + interval '48 hours' + ((g * 31 + 5 * 17) % 700 + 1) * interval '1 minute' END
       FROM generate_series(1, $2::int) g
       CROSS JOIN LATERAL (
         SELECT timestamptz '2026-01-01' + (g * 180.0 / $2::int) * interval '1 day' AS start,
                CASE WHEN g % 10 < 6 THEN 'Approved' WHEN g % 10 < 8 THEN 'Rejected' WHEN g % 10 = 8 THEN 'Running' ELSE 'Withdrawn' END AS status
       ) s
       JOIN workflow.definition_version v ON v.tenant_id = $1 AND v.key = 'bench-' || (g % ${DEFINITIONS})`,
    [tenant, count],
  );
  await pool.query(
    `INSERT INTO workflow.task (id, tenant_id, instance_id, node_key, visit, seq, assignee, owner, status, comment, decided_at, decided_by, created_at)
     SELECT gen_random_uuid(), i.tenant_id, i.id, 'n' || k, 1, 0, x.assignee, NULL, x.status,
            CASE WHEN x.status = 'Rejected' THEN (${REASONS})[1 + x.g % 4] END,
            CASE WHEN x.status IN ('Approved', 'Rejected', 'Cancelled') THEN x.opened + ((x.g * 31 + k * 17) % 700 + 1) * interval '1 minute' END,
            CASE WHEN x.status IN ('Approved', 'Rejected') THEN x.assignee END,
            x.opened
       FROM workflow.instance i
       CROSS JOIN generate_series(1, 5) k
       CROSS JOIN LATERAL (
         SELECT substr(i.business_key, 3)::int AS g, i.created_at + (k - 1) * interval '12 hours' AS opened,
                'approver-' || ((substr(i.business_key, 3)::int + k * 7) % 300) AS assignee,
                CASE WHEN k < 5 OR i.status = 'Approved' THEN 'Approved' WHEN i.status = 'Rejected' THEN 'Rejected'
                     WHEN i.status = 'Running' THEN 'Pending' ELSE 'Cancelled' END AS status
       ) x
      WHERE i.tenant_id = $1`,
    [tenant],
  );
  // Binding changes: one every ~2.6 hours of the half year, spread over keys and actions.
  await pool.query(
    `INSERT INTO workflow.definition_deployment (id, tenant_id, key, action, from_version_id, to_version_id, actor, at)
     SELECT gen_random_uuid(), $1, v.key, (ARRAY['publish', 'grayscale', 'complete-grayscale', 'rollback', 'legacy-deploy'])[1 + g % 5], NULL, v.id, 'bench',
            timestamptz '2026-01-01' + g * interval '157 minutes'
       FROM generate_series(1, 1650) g JOIN workflow.definition_version v ON v.tenant_id = $1 AND v.key = 'bench-' || (g % ${DEFINITIONS})`,
    [tenant],
  );
}

/**
 * The raw SQL aggregate of each report's question, written plainly (no covering tricks, no JSON
 * shaping), and the figure of its answer compared with the report's, so both answer the same.
 */
const RAW: Record<string, { sql: string[]; figure: (rows: Array<Array<Record<string, unknown>>>) => number; reportFigure: (body: ReportBody) => number }> = {
  instances: {
    sql: [
      `SELECT definition_key, status, count(*)::int AS n FROM workflow.instance WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1, 2`,
    ],
    figure: ([rows]) => rows!.reduce((sum, r) => sum + Number(r['n']), 0),
    reportFigure: (body) => body.totals.total,
  },
  'task-duration': {
    sql: [
      `SELECT i.definition_key, t.node_key, count(*)::int AS n, avg(extract(epoch FROM t.decided_at - t.created_at)),
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM t.decided_at - t.created_at)),
              percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM t.decided_at - t.created_at)), max(extract(epoch FROM t.decided_at - t.created_at))
         FROM workflow.task t JOIN workflow.instance i ON i.id = t.instance_id
        WHERE t.tenant_id = $1 AND t.status IN ('Approved', 'Rejected') AND t.decided_at >= $2 AND t.decided_at < $3 GROUP BY 1, 2`,
    ],
    figure: ([rows]) => rows!.reduce((sum, r) => sum + Number(r['n']), 0),
    reportFigure: (body) => body.nodes.reduce((sum: number, n: { decided: number }) => sum + n.decided, 0),
  },
  approvers: {
    sql: [
      `SELECT decided_by, count(*)::int AS n, count(*) FILTER (WHERE status = 'Approved'), count(*) FILTER (WHERE status = 'Rejected'),
              avg(extract(epoch FROM decided_at - created_at))
         FROM workflow.task WHERE tenant_id = $1 AND status IN ('Approved', 'Rejected') AND decided_at >= $2 AND decided_at < $3 GROUP BY 1`,
    ],
    figure: ([rows]) => rows!.length,
    reportFigure: (body) => body.totalApprovers,
  },
  bottlenecks: {
    sql: [
      `SELECT i.definition_key, t.node_key, count(*)::int AS n, min(t.created_at), avg(extract(epoch FROM now() - t.created_at))
         FROM workflow.task t JOIN workflow.instance i ON i.id = t.instance_id
        WHERE t.tenant_id = $1 AND t.status = 'Pending' AND t.created_at < $3 AND $2::timestamptz IS NOT NULL GROUP BY 1, 2`,
      `SELECT i.definition_key, t.node_key, count(*)::int AS n, avg(extract(epoch FROM t.decided_at - t.created_at))
         FROM workflow.task t JOIN workflow.instance i ON i.id = t.instance_id
        WHERE t.tenant_id = $1 AND t.status IN ('Approved', 'Rejected') AND t.decided_at >= $2 AND t.decided_at < $3 GROUP BY 1, 2`,
    ],
    figure: ([pending]) => pending!.reduce((sum, r) => sum + Number(r['n']), 0),
    reportFigure: (body) => body.nodes.reduce((sum: number, n: { pendingTasks: number }) => sum + n.pendingTasks, 0),
  },
  rejects: {
    sql: [
      `SELECT i.definition_key, t.node_key, count(*)::int AS n, count(DISTINCT t.instance_id),
              count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM workflow.task n WHERE n.instance_id = t.instance_id AND n.created_at > t.decided_at) AND i.status = 'Rejected')
         FROM workflow.task t JOIN workflow.instance i ON i.id = t.instance_id
        WHERE t.tenant_id = $1 AND t.status = 'Rejected' AND t.owner IS NULL AND t.decided_at >= $2 AND t.decided_at < $3 GROUP BY 1, 2`,
      `SELECT i.definition_key, t.node_key, btrim(t.comment), count(*)
         FROM workflow.task t JOIN workflow.instance i ON i.id = t.instance_id
        WHERE t.tenant_id = $1 AND t.status = 'Rejected' AND t.owner IS NULL AND t.decided_at >= $2 AND t.decided_at < $3 GROUP BY 1, 2, 3`,
    ],
    figure: ([rows]) => rows!.reduce((sum, r) => sum + Number(r['n']), 0),
    reportFigure: (body) => body.totalRejections,
  },
  trends: {
    sql: [
      `SELECT date_trunc('day', created_at AT TIME ZONE 'UTC'), count(*)::int AS n FROM workflow.instance
        WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1`,
      `SELECT date_trunc('day', ended_at AT TIME ZONE 'UTC'), count(*)::int AS n, avg(extract(epoch FROM ended_at - created_at)) FROM workflow.instance
        WHERE tenant_id = $1 AND status IN ('Approved', 'Rejected') AND ended_at >= $2 AND ended_at < $3 GROUP BY 1`,
    ],
    figure: ([, completed]) => completed!.reduce((sum, r) => sum + Number(r['n']), 0),
    reportFigure: (body) => body.buckets.reduce((sum: number, b: { completed: number }) => sum + b.completed, 0),
  },
  deployments: {
    sql: [`SELECT key, action, count(*)::int AS n FROM workflow.definition_deployment WHERE tenant_id = $1 AND at >= $2 AND at < $3 GROUP BY 1, 2`],
    figure: ([rows]) => rows!.reduce((sum, r) => sum + Number(r['n']), 0),
    reportFigure: (body) => body.totals.total,
  },
};

/** A report's JSON answer, read only for the figure checked against the raw aggregate. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each report has its own shape; the figure functions below name the fields they read.
type ReportBody = any;

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

export async function benchWorkflowReports(options: { quick: boolean; amqpUrl: string }): Promise<void> {
  const urls = {
    postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const instances = options.quick ? 10_000 : 100_000;
  const runs = options.quick ? 3 : 7;
  const id = `bench_wfr_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  const jwtSettings = { JWT_SECRET: randomBytes(32).toString('base64url'), JWT_ISSUER: 'bench-issuer', JWT_AUDIENCE: 'bench-audience' };
  out(`\nWorkflow reports over HTTP (QUERY) vs the raw SQL aggregate of the same question, ${instances} instances × 5 tasks — database ${id}`);
  let db: TestDatabase | undefined;
  let pool: Pool | undefined;
  const servers: ChildProcess[] = [];
  try {
    db = await createTestDatabase(urls.postgres, id);
    const env = benchRunEnv(id, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, dataDir);
    // policy-management first: it migrates and seeds the catalog, tenant `default` and its admin (who holds workflow.report.view).
    servers.push(await startServer('decision', env));
    const engine = await startListeningServer('workflow-engine', { ...env, ...jwtSettings });
    servers.push(engine.child);
    const token = signAccessToken(
      { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT },
      { secret: jwtSettings.JWT_SECRET, issuer: jwtSettings.JWT_ISSUER, audience: jwtSettings.JWT_AUDIENCE },
    );

    pool = new Pool({ connectionString: db.url, max: 2 });
    const generating = performance.now();
    await generate(pool, SEEDED_TENANT, instances);
    await generate(pool, OTHER_TENANT, instances / 5);
    await pool.query(`VACUUM ANALYZE workflow.instance, workflow.task, workflow.definition_deployment`);
    const [{ tasks }] = (await pool.query(`SELECT count(*)::int AS tasks FROM workflow.task WHERE tenant_id = $1`, [SEEDED_TENANT])).rows;
    out(
      `generated ${instances} instances and ${tasks} tasks (+ ${instances / 5} of another tenant) in ${((performance.now() - generating) / 1000).toFixed(1)} s`,
    );

    const report = async (name: string) => {
      const response = await fetch(`http://127.0.0.1:${engine.port}/api/workflow/reports/${name}`, {
        method: 'QUERY',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(PERIOD),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`QUERY ${name}: ${response.status} ${text.slice(0, 500)}`);
      return JSON.parse(text) as unknown;
    };
    const raw = async (name: string) => {
      const results = [];
      for (const sql of RAW[name]!.sql) results.push((await pool!.query(sql, [SEEDED_TENANT, PERIOD.From, PERIOD.To])).rows);
      return results;
    };
    const timed = async <T>(call: () => Promise<T>): Promise<{ ms: number; value: T }> => {
      const t0 = performance.now();
      const value = await call();
      return { ms: performance.now() - t0, value };
    };

    const rows: Array<Record<string, string | number>> = [];
    const missed: string[] = [];
    for (const name of Object.keys(RAW)) {
      // One untimed call of each first (plans, caches), then alternating timed runs so load changes hit both alike.
      const [answer, baseline] = [await report(name), await raw(name)];
      const figures = { report: RAW[name]!.reportFigure(answer), raw: RAW[name]!.figure(baseline) };
      if (figures.report !== figures.raw) throw new Error(`${name}: the report answers ${figures.report}, the raw aggregate ${figures.raw}`);
      const samples = { report: [] as number[], raw: [] as number[] };
      for (let run = 0; run < runs; run++) {
        samples.report.push((await timed(() => report(name))).ms);
        samples.raw.push((await timed(() => raw(name))).ms);
      }
      const p50 = { report: median(samples.report), raw: median(samples.raw) };
      const ratio = p50.report / p50.raw;
      if (ratio > TARGET_RATIO) missed.push(name);
      rows.push({
        report: name,
        'checked figure': figures.report,
        'report p50 ms (HTTP)': p50.report.toFixed(1),
        'raw SQL p50 ms': p50.raw.toFixed(1),
        ratio: `${ratio.toFixed(2)}x`,
        [`≤ ${TARGET_RATIO}x`]: ratio <= TARGET_RATIO ? 'met' : 'NOT MET',
      });
    }
    out(formatTable(rows));
    out(
      missed.length === 0
        ? `every report within ${TARGET_RATIO}x of its raw aggregate (p50 of ${runs} runs each)`
        : `NOT MET for ${missed.join(', ')} (p50 of ${runs} runs each)`,
    );
  } finally {
    const { attempt, problems } = teardownSteps();
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

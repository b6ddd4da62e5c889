import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DEPLOYMENT_ACTIONS, INSTANCE_STATUSES } from '../store';
import type { Granularity, ReportPeriod } from './report-period';
import { TRUNC_UNIT } from './report-period';

/** What every report reads: the caller's tenant, the period, an optional definition key and a row limit. */
export interface ReportScope {
  tenantId: string;
  period: ReportPeriod;
  definitionKey?: string;
  limit: number;
}

/** A report's statement runs at most this long; the period and row limits keep real ones far below it. */
const STATEMENT_TIMEOUT_MS = 20_000;

/** Tasks that are a decision (a vote, or a delegate's advice): the rows of task-duration, approvers and rejects. */
const DECIDED = `t."status" IN ('Approved', 'Rejected')`;
/** Seconds from a task's opening to its decision. */
const DECISION_SECONDS = `extract(epoch FROM t."decided_at" - t."created_at")`;

/** `count(*) FILTER (WHERE <column> = '<value>')::int AS "<alias>"` for each value: one pass, one column per value. */
const countsBy = (column: string, values: readonly string[], alias: (value: string) => string = (v) => v) =>
  values.map((v) => `count(*) FILTER (WHERE ${column} = '${v}')::int AS "${alias(v)}"`).join(', ');

/**
 * A per-definition aggregate (`grouped`, one row per "definitionKey") as its total row first
 * (`definitionKey` null: the sum of every group, whatever the limit), then its `limit` largest groups.
 * (A GROUPING SETS form was several times slower on the bench data: it sorts where this hashes.)
 */
const withTotalRow = (grouped: string, summed: readonly string[], limit: string, maxed: readonly string[] = []) => `
  WITH g AS (${grouped})
  SELECT * FROM (
    SELECT 0 AS "rank", NULL::text AS "definitionKey", ${[...summed.map((c) => `coalesce(sum("${c}"), 0)::int AS "${c}"`), ...maxed.map((c) => `max("${c}") AS "${c}"`)].join(', ')} FROM g
    UNION ALL
    SELECT 1, "definitionKey", ${[...summed, ...maxed].map((c) => `"${c}"`).join(', ')} FROM g
  ) r
  ORDER BY "rank", "total" DESC, "definitionKey"
  LIMIT ${limit} + 1`;

/**
 * The statements behind the reports (docs/reports.md). Each is one SQL aggregate over indexed
 * columns (migration 1764730000000-CreateReportIndexes): rows are counted, averaged and ranked in
 * PostgreSQL, and only the answer's rows come back. Every table of every statement is narrowed to
 * the caller's tenant ($1), joins included.
 */
@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Instances started in the period, by definition and current status; the first row (`definitionKey` null) is the total. */
  instances(scope: ReportScope): Promise<Array<{ definitionKey: string | null } & Record<string, number>>> {
    const { where, params } = this.filter(scope, 'i."definition_key"');
    return this.read(
      withTotalRow(
        `SELECT i."definition_key" AS "definitionKey", count(*)::int AS "total", ${countsBy('i."status"', INSTANCE_STATUSES)}
           FROM "workflow"."instance" i
          WHERE i."tenant_id" = $1 AND i."created_at" >= $2 AND i."created_at" < $3 ${where}
          GROUP BY i."definition_key"`,
        ['total', ...INSTANCE_STATUSES],
        `$${params.length + 1}`,
      ),
      [...params, scope.limit],
    );
  }

  /** Decided tasks (decided in the period) by definition and node: how long they took, in seconds. */
  taskDuration(
    scope: ReportScope,
  ): Promise<
    Array<{ definitionKey: string; nodeKey: string; decided: number; avgSeconds: number; p50Seconds: number; p95Seconds: number; maxSeconds: number }>
  > {
    const { where, params } = this.filter(scope, 'i."definition_key"');
    return this.read(
      `SELECT i."definition_key" AS "definitionKey", t."node_key" AS "nodeKey", count(*)::int AS "decided",
              avg(${DECISION_SECONDS})::float8 AS "avgSeconds",
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ${DECISION_SECONDS})::float8 AS "p50Seconds",
              percentile_cont(0.95) WITHIN GROUP (ORDER BY ${DECISION_SECONDS})::float8 AS "p95Seconds",
              max(${DECISION_SECONDS})::float8 AS "maxSeconds"
         FROM "workflow"."task" t
         JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = $1
        WHERE t."tenant_id" = $1 AND ${DECIDED} AND t."decided_at" >= $2 AND t."decided_at" < $3 ${where}
        GROUP BY i."definition_key", t."node_key"
        ORDER BY "p95Seconds" DESC, "definitionKey", "nodeKey"
        LIMIT $${params.length + 1}`,
      [...params, scope.limit],
    );
  }

  /** Per person who decided tasks in the period: how many, approved, rejected, and how long after the task opened. */
  approvers(
    scope: ReportScope,
  ): Promise<Array<{ approver: string; decided: number; approved: number; rejected: number; avgDecisionSeconds: number; totalApprovers: number }>> {
    // The instance is joined only to filter by definition key: without one the task's own covering index answers.
    const join = scope.definitionKey ? `JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = $1` : '';
    const { where, params } = this.filter(scope, 'i."definition_key"');
    return this.read(
      `SELECT t."decided_by" AS "approver", count(*)::int AS "decided",
              count(*) FILTER (WHERE t."status" = 'Approved')::int AS "approved",
              count(*) FILTER (WHERE t."status" = 'Rejected')::int AS "rejected",
              avg(${DECISION_SECONDS})::float8 AS "avgDecisionSeconds",
              (count(*) OVER ())::int AS "totalApprovers"
         FROM "workflow"."task" t ${join}
        WHERE t."tenant_id" = $1 AND ${DECIDED} AND t."decided_at" >= $2 AND t."decided_at" < $3 AND t."decided_by" IS NOT NULL ${where}
        GROUP BY t."decided_by"
        ORDER BY "decided" DESC, "approver"
        LIMIT $${params.length + 1}`,
      [...params, scope.limit],
    );
  }

  /**
   * Nodes where work waits: the Pending tasks now (how many, since when, how long on average: up to
   * the statement's `now()`), beside the average decision time of the node's tasks decided in the
   * period. Longest wait first, then the slowest decisions.
   */
  bottlenecks(scope: ReportScope): Promise<
    Array<{
      definitionKey: string;
      nodeKey: string;
      pendingTasks: number;
      oldestPendingSince: Date | null;
      maxWaitingSeconds: number | null;
      avgWaitingSeconds: number | null;
      decidedInPeriod: number;
      avgDecisionSeconds: number | null;
      asOf: Date;
    }>
  > {
    const { where, params } = this.filter(scope, 'i."definition_key"');
    return this.read(
      `WITH waiting AS (
         SELECT i."definition_key", t."node_key", count(*)::int AS "pending", min(t."created_at") AS "oldest",
                avg(extract(epoch FROM now() - t."created_at"))::float8 AS "avgWaiting"
           FROM "workflow"."task" t
           JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = $1
          WHERE t."tenant_id" = $1 AND t."status" = 'Pending' AND t."created_at" < $3 ${where}
          GROUP BY i."definition_key", t."node_key"
       ), decided AS (
         SELECT i."definition_key", t."node_key", count(*)::int AS "decided", avg(${DECISION_SECONDS})::float8 AS "avgDecision"
           FROM "workflow"."task" t
           JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = $1
          WHERE t."tenant_id" = $1 AND ${DECIDED} AND t."decided_at" >= $2 AND t."decided_at" < $3 ${where}
          GROUP BY i."definition_key", t."node_key"
       )
       SELECT "definition_key" AS "definitionKey", "node_key" AS "nodeKey", coalesce(w."pending", 0) AS "pendingTasks",
              w."oldest" AS "oldestPendingSince", extract(epoch FROM now() - w."oldest")::float8 AS "maxWaitingSeconds",
              w."avgWaiting" AS "avgWaitingSeconds", coalesce(d."decided", 0) AS "decidedInPeriod", d."avgDecision" AS "avgDecisionSeconds",
              now() AS "asOf"
         FROM waiting w FULL JOIN decided d USING ("definition_key", "node_key")
        ORDER BY "maxWaitingSeconds" DESC NULLS LAST, "avgDecisionSeconds" DESC NULLS LAST, "definitionKey", "nodeKey"
        LIMIT $${params.length + 1}`,
      [...params, scope.limit],
    );
  }

  /**
   * Rejection votes (a delegate's rejection is advice, not counted) decided in the period, by node:
   * where the flow went next (the node of the instance's first task opened after the rejection:
   * the reject target, or the first node again after a return to the initiator and a resubmit;
   * `(end)` when nothing opened after it and the instance ended Rejected; `(none)` otherwise) and
   * the most frequent comments (at most 5 per node, cut to 200 characters).
   */
  rejects(scope: ReportScope): Promise<
    Array<{
      definitionKey: string;
      nodeKey: string;
      rejections: number;
      instances: number;
      targets: Array<{ target: string; count: number }>;
      reasons: Array<{ reason: string; count: number }>;
      totalRejections: number;
    }>
  > {
    const { where, params } = this.filter(scope, 'i."definition_key"');
    return this.read(
      `WITH r AS (
         SELECT t."instance_id", t."node_key", t."decided_at", t."comment", i."definition_key", i."status" AS "instance_status"
           FROM "workflow"."task" t
           JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = $1
          WHERE t."tenant_id" = $1 AND t."status" = 'Rejected' AND t."owner" IS NULL AND t."decided_at" >= $2 AND t."decided_at" < $3 ${where}
       ), targeted AS (
         SELECT r."definition_key", r."node_key",
                CASE WHEN nx."node_key" IS NOT NULL THEN nx."node_key" WHEN r."instance_status" = 'Rejected' THEN '(end)' ELSE '(none)' END AS "target"
           FROM r
           LEFT JOIN LATERAL (
             SELECT n."node_key" FROM "workflow"."task" n
              WHERE n."instance_id" = r."instance_id" AND n."tenant_id" = $1 AND n."created_at" > r."decided_at"
              ORDER BY n."created_at" LIMIT 1
           ) nx ON true
       ), nodes AS (
         SELECT "definition_key", "node_key", count(*)::int AS "rejections", count(DISTINCT "instance_id")::int AS "instances" FROM r GROUP BY 1, 2
       ), targets AS (
         SELECT "definition_key", "node_key", json_agg(json_build_object('target', "target", 'count', "n") ORDER BY "n" DESC, "target") AS "targets"
           FROM (SELECT "definition_key", "node_key", "target", count(*)::int AS "n" FROM targeted GROUP BY 1, 2, 3) g
          GROUP BY 1, 2
       ), reasons AS (
         SELECT "definition_key", "node_key", json_agg(json_build_object('reason', "reason", 'count', "n") ORDER BY "n" DESC, "reason") AS "reasons"
           FROM (
             SELECT g.*, row_number() OVER (PARTITION BY "definition_key", "node_key" ORDER BY "n" DESC, "reason") AS "rank"
               FROM (SELECT "definition_key", "node_key", left(btrim("comment"), 200) AS "reason", count(*)::int AS "n"
                       FROM r WHERE btrim(coalesce("comment", '')) <> '' GROUP BY 1, 2, 3) g
           ) ranked
          WHERE "rank" <= 5
          GROUP BY 1, 2
       )
       SELECT n."definition_key" AS "definitionKey", n."node_key" AS "nodeKey", n."rejections", n."instances",
              coalesce(t."targets", '[]'::json) AS "targets", coalesce(s."reasons", '[]'::json) AS "reasons",
              (sum(n."rejections") OVER ())::int AS "totalRejections"
         FROM nodes n
         LEFT JOIN targets t USING ("definition_key", "node_key")
         LEFT JOIN reasons s USING ("definition_key", "node_key")
        ORDER BY n."rejections" DESC, "definitionKey", "nodeKey"
        LIMIT $${params.length + 1}`,
      [...params, scope.limit],
    );
  }

  /**
   * Per bucket of the granularity (UTC calendar buckets; the first and last are cut to the period):
   * instances started, instances completed (ended Approved or Rejected) and the real average
   * duration (start to end) of those completed in the bucket: null when none completed.
   */
  trends(
    scope: Omit<ReportScope, 'limit'>,
    granularity: Granularity,
  ): Promise<Array<{ start: Date; started: number; completed: number; avgDurationSeconds: number | null }>> {
    const { where, params } = this.filter(scope, 'i."definition_key"');
    const unit = `$${params.length + 1}::text`;
    // Buckets are computed on UTC wall-clock timestamps (`AT TIME ZONE 'UTC'`), so neither the session's time zone nor DST moves them.
    return this.read(
      `WITH buckets AS (
         SELECT b AS "start"
           FROM generate_series(date_trunc(${unit}, $2::timestamptz AT TIME ZONE 'UTC'), ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond',
                                ('1 ' || ${unit})::interval) b
       ), started AS (
         SELECT date_trunc(${unit}, i."created_at" AT TIME ZONE 'UTC') AS "start", count(*)::int AS "n"
           FROM "workflow"."instance" i
          WHERE i."tenant_id" = $1 AND i."created_at" >= $2 AND i."created_at" < $3 ${where}
          GROUP BY 1
       ), completed AS (
         SELECT date_trunc(${unit}, i."ended_at" AT TIME ZONE 'UTC') AS "start", count(*)::int AS "n",
                avg(extract(epoch FROM i."ended_at" - i."created_at"))::float8 AS "avgSeconds"
           FROM "workflow"."instance" i
          WHERE i."tenant_id" = $1 AND i."ended_at" >= $2 AND i."ended_at" < $3 AND i."status" IN ('Approved', 'Rejected') ${where}
          GROUP BY 1
       )
       SELECT b."start" AT TIME ZONE 'UTC' AS "start", coalesce(s."n", 0) AS "started", coalesce(c."n", 0) AS "completed", c."avgSeconds" AS "avgDurationSeconds"
         FROM buckets b
         LEFT JOIN started s USING ("start")
         LEFT JOIN completed c USING ("start")
        ORDER BY b."start"`,
      [...params, TRUNC_UNIT[granularity]],
    );
  }

  /** Binding changes in the period by definition key and action; the first row (`definitionKey` null) is the total. */
  deployments(scope: ReportScope): Promise<Array<{ definitionKey: string | null; total: number; lastAt: Date | null } & Record<string, number>>> {
    const { where, params } = this.filter(scope, 'd."key"');
    return this.read(
      withTotalRow(
        `SELECT d."key" AS "definitionKey", count(*)::int AS "total", ${countsBy('d."action"', DEPLOYMENT_ACTIONS)}, max(d."at") AS "lastAt"
           FROM "workflow"."definition_deployment" d
          WHERE d."tenant_id" = $1 AND d."at" >= $2 AND d."at" < $3 ${where}
          GROUP BY d."key"`,
        ['total', ...DEPLOYMENT_ACTIONS],
        `$${params.length + 1}`,
        ['lastAt'],
      ),
      [...params, scope.limit],
    );
  }

  /** The tenant and period parameters ($1–$3) and, with a definition key, its predicate ($4). */
  private filter(scope: Omit<ReportScope, 'limit'>, keyColumn: string): { where: string; params: unknown[] } {
    const params: unknown[] = [scope.tenantId, scope.period.from, scope.period.to];
    if (!scope.definitionKey) return { where: '', params };
    params.push(scope.definitionKey);
    return { where: `AND ${keyColumn} = $${params.length}`, params };
  }

  /**
   * One read-only transaction per report with a statement timeout, so no report can hold the
   * database longer than STATEMENT_TIMEOUT_MS whatever its input.
   */
  private read<T>(sql: string, params: unknown[]): Promise<T> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      // JIT off: a report is one aggregate of milliseconds to a second, and the planner's inflated row
      // estimates (generate_series counts as 1,000 rows, joins multiply) made PostgreSQL spend ~270 ms
      // compiling the trend report's expressions on the 100,000-instance bench, three times its run time.
      await manager.query(`SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}; SET LOCAL jit = off`);
      return manager.query(sql, params) as Promise<T>;
    });
  }
}

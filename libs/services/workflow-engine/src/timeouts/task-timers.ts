import { EntityManager } from 'typeorm';
import type { FlowNode } from '../engine';
import type { TaskRow } from '../runtime/runtime.repository';
import { HANDS_OVER, intervalOf } from './timeout-plan';

export type TimerState = 'armed' | 'fired' | 'dropped' | 'failed';

export interface TaskTimerRow {
  task_id: string;
  tenant_id: string;
  instance_id: string;
  node_key: string;
  visit: number;
  seq: number;
  action: string;
  due_at: Date;
  repeat_every: string | null;
  state: TimerState;
  fired_count: number;
}

const TIMER = `"task_id", "tenant_id", "instance_id", "node_key", "visit", "seq", "action", "due_at", "repeat_every"::text AS "repeat_every", "state", "fired_count"`;

/**
 * The due times of node timeouts (`workflow.task_timer`, docs/timeouts.md). Every method runs in
 * the caller's transaction: arming in the one that opens the task, claiming and settling in the one
 * that runs the action, so a timer is fired exactly when its action commits. No dependencies of its
 * own (the runtime holds one, as it holds its admin audit).
 */
export class TaskTimers {
  /**
   * Arms the timer of a task that just opened, when its node has a timeout: due `after` from the
   * task's creation. A seat whose task a timeout already handed over at this visit is not armed
   * again for a hand-over, so a transfer or an escalation happens once per seat and visit (the new
   * holder is not handed on, and on, by the same rule).
   */
  async arm(manager: EntityManager, node: FlowNode, task: TaskRow): Promise<void> {
    if (node.kind !== 'approval' || !node.timeout) return;
    const { timeout } = node;
    if (HANDS_OVER.has(timeout.action) && (await this.handedOverByTimeout(manager, task))) return;
    await manager.query(
      `INSERT INTO "workflow"."task_timer" ("task_id", "tenant_id", "instance_id", "node_key", "visit", "seq", "action", "due_at", "repeat_every")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz + $9::interval, $10::interval)
       ON CONFLICT ("task_id") DO NOTHING`,
      [
        task.id,
        task.tenant_id,
        task.instance_id,
        task.node_key,
        task.visit,
        task.seq,
        timeout.action,
        task.created_at,
        intervalOf(timeout.after),
        timeout.repeatEvery === undefined ? null : intervalOf(timeout.repeatEvery),
      ],
    );
  }

  private async handedOverByTimeout(manager: EntityManager, task: TaskRow): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM "workflow"."task_timer"
        WHERE "instance_id" = $1 AND "node_key" = $2 AND "visit" = $3 AND "seq" = $4 AND "state" = 'fired' AND "action" IN ('transfer', 'escalate')
        LIMIT 1`,
      [task.instance_id, task.node_key, task.visit, task.seq],
    );
    return rows.length > 0;
  }

  /**
   * Due timers to try, oldest first, outside any transaction (each is claimed in its own). Timers
   * of Suspended instances wait for the resume (a vote would be refused); the tenants and tasks
   * given are left out (feature off, or tried already in this run).
   */
  async due(
    manager: EntityManager,
    now: Date,
    limit: number,
    skipTenants: string[],
    skipTasks: string[],
  ): Promise<Array<{ taskId: string; tenantId: string }>> {
    return manager.query(
      `SELECT tt."task_id" AS "taskId", tt."tenant_id" AS "tenantId"
         FROM "workflow"."task_timer" tt
         LEFT JOIN "workflow"."instance" i ON i."id" = tt."instance_id" AND i."tenant_id" = tt."tenant_id"
        WHERE tt."state" = 'armed' AND tt."due_at" <= $1 AND i."status" IS DISTINCT FROM 'Suspended'
          AND NOT (tt."tenant_id" = ANY ($2::varchar[])) AND NOT (tt."task_id" = ANY ($3::uuid[]))
        ORDER BY tt."due_at", tt."task_id"
        LIMIT $4`,
      [now, skipTenants, skipTasks, limit],
    );
  }

  /**
   * The timer, locked for this transaction, if it is still armed and due: undefined when another run
   * holds it (`SKIP LOCKED`: never waited on) or has settled it meanwhile (the row is re-checked
   * after the lock), so two runs never fire one timer.
   */
  async claim(manager: EntityManager, taskId: string, now: Date): Promise<TaskTimerRow | undefined> {
    const rows: TaskTimerRow[] = await manager.query(
      `SELECT ${TIMER} FROM "workflow"."task_timer" WHERE "task_id" = $1 AND "state" = 'armed' AND "due_at" <= $2 FOR UPDATE SKIP LOCKED`,
      [taskId, now],
    );
    return rows[0];
  }

  /**
   * The claimed timer fired: `fired`, or for a repeating reminder armed again one interval after
   * its due time (after an outage: one interval after `now`, so a backlog is one reminder, not a burst).
   */
  async fired(manager: EntityManager, taskId: string, now: Date): Promise<void> {
    await manager.query(
      `UPDATE "workflow"."task_timer"
          SET "state" = CASE WHEN "repeat_every" IS NULL THEN 'fired' ELSE 'armed' END,
              "due_at" = CASE WHEN "repeat_every" IS NULL THEN "due_at"
                              WHEN "due_at" + "repeat_every" > $2 THEN "due_at" + "repeat_every"
                              ELSE $2::timestamptz + "repeat_every" END,
              "fired_count" = "fired_count" + 1, "last_fired_at" = $2, "updated_at" = clock_timestamp()
        WHERE "task_id" = $1`,
      [taskId, now],
    );
  }

  /** The timer ends without firing: its task was no longer Pending (`dropped`), or the action was refused for good (`failed`, with the code). */
  async settle(manager: EntityManager, taskId: string, state: 'dropped' | 'failed', errorCode: string | null = null): Promise<void> {
    await manager.query(
      `UPDATE "workflow"."task_timer" SET "state" = $2, "error_code" = $3, "updated_at" = clock_timestamp() WHERE "task_id" = $1 AND "state" = 'armed'`,
      [taskId, state, errorCode],
    );
  }
}

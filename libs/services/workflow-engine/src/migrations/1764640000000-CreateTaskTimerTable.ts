import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Node timeouts' due times (docs/timeouts.md): one row per task opened at an approval node with a
 * `timeout`, written in the transaction that opens the task, so a due time exists exactly when its
 * task does and survives any restart. The `workflow-engine.node-timeouts` job claims due rows
 * (`state = 'armed' AND due_at <= now`, the partial index) and ends each in the transaction of its
 * action: `fired` (or `armed` again, later, for a repeating reminder), `dropped` (the task was no
 * longer Pending) or `failed` (the action was refused for good, `error_code`).
 *
 * No foreign keys: deleting a terminal instance (management) must neither wait on nor deadlock with
 * a claim, which locks the timer row before the instance; a timer whose task is gone is dropped
 * when it comes due. `visit` and `seq` name the task's seat, so a seat whose task a timeout handed
 * over is not armed again for another hand-over at that visit.
 */
export class CreateTaskTimerTable1764640000000 implements MigrationInterface {
  name = 'CreateTaskTimerTable1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "workflow"."task_timer" (
        "task_id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "instance_id" uuid NOT NULL,
        "node_key" varchar(64) NOT NULL,
        "visit" integer NOT NULL,
        "seq" integer NOT NULL,
        "action" varchar(16) NOT NULL,
        "due_at" timestamptz NOT NULL,
        "repeat_every" interval,
        "state" varchar(8) NOT NULL DEFAULT 'armed',
        "fired_count" integer NOT NULL DEFAULT 0,
        "last_fired_at" timestamptz,
        "error_code" varchar(128),
        "created_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        "updated_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "ck_task_timer_action" CHECK ("action" IN ('auto-approve', 'auto-reject', 'remind', 'transfer', 'escalate')),
        CONSTRAINT "ck_task_timer_state" CHECK ("state" IN ('armed', 'fired', 'dropped', 'failed')),
        CONSTRAINT "ck_task_timer_repeat" CHECK ("repeat_every" IS NULL OR ("action" = 'remind' AND "repeat_every" > interval '0'))
      )`);
    // The job's claim: due rows only, oldest first.
    await q.query(`CREATE INDEX "ix_task_timer_due" ON "workflow"."task_timer" ("due_at", "task_id") WHERE "state" = 'armed'`);
    // A seat's earlier timers (was it handed over by a timeout at this visit?).
    await q.query(`CREATE INDEX "ix_task_timer_seat" ON "workflow"."task_timer" ("instance_id", "node_key", "visit", "seq")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "workflow"."task_timer"`);
  }
}

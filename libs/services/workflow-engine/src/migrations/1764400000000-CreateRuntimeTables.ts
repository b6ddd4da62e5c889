import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The runtime store (docs/runtime.md).
 *
 * - `instance`: one row per started process, pinned to the definition version it started on. The row
 *   is the lock of everything that happens to the instance: every runtime write takes it
 *   `FOR UPDATE` first, so votes, node closings and state changes of one instance run one after
 *   another; `version` is bumped by every write (optimistic concurrency for readers). `position`
 *   holds the walk (parked approval nodes, parallel joins, visits, resolved assignees).
 *   (tenant, definition key, business key) is unique: a second start with the same business key
 *   answers the first instance.
 * - `task`: one row per assignee (seat `seq`) of an approval node's visit; its status is the vote
 *   (Approved / Rejected), appended in `decided_at` order. Pending tasks are the todo list; at most
 *   one per seat is Pending (a transfer closes one and opens the next on the same seat).
 */
export class CreateRuntimeTables1764400000000 implements MigrationInterface {
  name = 'CreateRuntimeTables1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "workflow"."instance" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "definition_key" varchar(64) NOT NULL,
        "definition_version_id" uuid NOT NULL REFERENCES "workflow"."definition_version" ("id"),
        "business_key" varchar(200) NOT NULL,
        "initiator" varchar(255) NOT NULL,
        "status" varchar(16) NOT NULL,
        "variables" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "position" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "priority" integer NOT NULL DEFAULT 0,
        "version" integer NOT NULL DEFAULT 1,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "ended_at" timestamptz,
        CONSTRAINT "uq_instance_business_key" UNIQUE ("tenant_id", "definition_key", "business_key"),
        CONSTRAINT "ck_instance_status" CHECK ("status" IN ('Running', 'Suspended', 'Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled')),
        CONSTRAINT "ck_instance_version_positive" CHECK ("version" > 0)
      )`);
    await q.query(`CREATE INDEX "ix_instance_tenant_id" ON "workflow"."instance" ("tenant_id", "id")`);
    await q.query(`
      CREATE TABLE "workflow"."task" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "instance_id" uuid NOT NULL REFERENCES "workflow"."instance" ("id"),
        "node_key" varchar(64) NOT NULL,
        "visit" integer NOT NULL,
        "seq" integer NOT NULL,
        "assignee" varchar(255) NOT NULL,
        "owner" varchar(255),
        "status" varchar(16) NOT NULL,
        "comment" text,
        "read_at" timestamptz,
        "decided_at" timestamptz,
        "decided_by" varchar(255),
        "created_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "ck_task_status" CHECK ("status" IN ('Pending', 'Approved', 'Rejected', 'Transferred', 'Delegated', 'Cancelled'))
      )`);
    // One open task per seat (assignee place) of a node visit; a transfer closes the seat's task and opens the next one on the same seat.
    await q.query(`CREATE UNIQUE INDEX "uq_task_open_seat" ON "workflow"."task" ("instance_id", "node_key", "visit", "seq") WHERE "status" = 'Pending'`);
    await q.query(`CREATE INDEX "ix_task_todo" ON "workflow"."task" ("tenant_id", "assignee", "created_at" DESC) WHERE "status" = 'Pending'`);
    await q.query(`CREATE INDEX "ix_task_done" ON "workflow"."task" ("tenant_id", "decided_by", "decided_at" DESC)`);
    await q.query(`CREATE INDEX "ix_task_instance" ON "workflow"."task" ("instance_id", "node_key", "visit")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "workflow"."task"`);
    await q.query(`DROP TABLE "workflow"."instance"`);
  }
}

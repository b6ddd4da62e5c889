import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes of the workflow reports (docs/reports.md), each serving one family of report statements
 * from the index alone where it can (INCLUDE columns: an index-only scan after VACUUM):
 *
 * - `ix_instance_report_created`: instances started in a period (instances, trends "started"), and
 *   the definition key and status of an instance joined by id (task reports) from the index.
 * - `ix_instance_report_ended`: instances ended in a period with their start (trends "completed",
 *   the average duration); partial, running instances have no end.
 * - `ix_task_report_decided`: decisions in a period (task-duration, approvers, rejects,
 *   bottlenecks' decision times); partial on the decided statuses.
 * - `ix_task_report_pending`: the Pending tasks of a tenant (bottlenecks); the todo index is per assignee.
 * - `ix_task_instance_created`: an instance's tasks in opening order (rejects: what opened after a rejection).
 * - `ix_definition_deployment_at`: binding changes of a tenant in a period (deployments); the
 *   existing index is per key first.
 */
export class CreateReportIndexes1764730000000 implements MigrationInterface {
  name = 'CreateReportIndexes1764730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_instance_report_created" ON "workflow"."instance" ("tenant_id", "created_at") INCLUDE ("definition_key", "status", "id")`);
    await q.query(
      `CREATE INDEX "ix_instance_report_ended" ON "workflow"."instance" ("tenant_id", "ended_at") INCLUDE ("definition_key", "status", "created_at") WHERE "ended_at" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "ix_task_report_decided" ON "workflow"."task" ("tenant_id", "decided_at") INCLUDE ("instance_id", "node_key", "status", "owner", "decided_by", "created_at")
        WHERE "status" IN ('Approved', 'Rejected')`,
    );
    await q.query(
      `CREATE INDEX "ix_task_report_pending" ON "workflow"."task" ("tenant_id", "created_at") INCLUDE ("instance_id", "node_key") WHERE "status" = 'Pending'`,
    );
    await q.query(`CREATE INDEX "ix_task_instance_created" ON "workflow"."task" ("instance_id", "created_at") INCLUDE ("node_key")`);
    await q.query(`CREATE INDEX "ix_definition_deployment_at" ON "workflow"."definition_deployment" ("tenant_id", "at") INCLUDE ("key", "action")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [
      'ix_definition_deployment_at',
      'ix_task_instance_created',
      'ix_task_report_pending',
      'ix_task_report_decided',
      'ix_instance_report_ended',
      'ix_instance_report_created',
    ]) {
      await q.query(`DROP INDEX "workflow"."${index}"`);
    }
  }
}

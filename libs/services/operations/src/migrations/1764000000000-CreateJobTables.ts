import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobTables1764000000000 implements MigrationInterface {
  name = 'CreateJobTables1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "ops"."job_definition" (
        "job_name" varchar(128) PRIMARY KEY,
        "cron" varchar(160),
        "interval_seconds" integer,
        "enabled" boolean NOT NULL,
        "source" varchar(64) NOT NULL,
        "description" varchar(500) NOT NULL,
        "module_name" varchar(128) NOT NULL,
        "is_critical" boolean NOT NULL,
        "default_cron" varchar(160),
        "default_interval_seconds" integer,
        "timeout_seconds" integer NOT NULL,
        "next_run_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "deleted_at" timestamptz,
        CONSTRAINT "ck_job_definition_cron_trimmed" CHECK ("cron" IS NULL OR ("cron" = btrim("cron") AND "cron" <> '')),
        CONSTRAINT "ck_job_definition_interval_positive" CHECK ("interval_seconds" IS NULL OR "interval_seconds" > 0),
        CONSTRAINT "ck_job_definition_one_schedule" CHECK ("cron" IS NULL OR "interval_seconds" IS NULL),
        CONSTRAINT "ck_job_definition_enabled_scheduled" CHECK (NOT "enabled" OR "cron" IS NOT NULL OR "interval_seconds" IS NOT NULL),
        CONSTRAINT "ck_job_definition_timeout_positive" CHECK ("timeout_seconds" > 0)
      )`);
    // The scheduler's one query: what is due now.
    await q.query(`CREATE INDEX "ix_job_definition_due" ON "ops"."job_definition" ("next_run_at") WHERE "enabled" AND "deleted_at" IS NULL`);
    await q.query(`
      CREATE TABLE "ops"."job_execution" (
        "id" uuid PRIMARY KEY,
        "job_name" varchar(128) NOT NULL,
        "trigger" varchar(16) NOT NULL,
        "status" varchar(16) NOT NULL,
        "scheduled_for" timestamptz,
        "started_at" timestamptz NOT NULL,
        "finished_at" timestamptz,
        "owner_started_at" timestamptz,
        "lease_until" timestamptz,
        "error_code" varchar(128),
        "detail" varchar(1000),
        "correlation_id" varchar(128),
        "actor" varchar(255) NOT NULL,
        "dispatched_by" varchar(255) NOT NULL,
        CONSTRAINT "ck_job_execution_trigger" CHECK ("trigger" IN ('schedule', 'manual')),
        CONSTRAINT "ck_job_execution_status" CHECK ("status" IN ('running', 'succeeded', 'failed', 'skipped', 'abandoned')),
        CONSTRAINT "ck_job_execution_scheduled_tick" CHECK (("trigger" = 'schedule') = ("scheduled_for" IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX "ix_job_execution_job_started" ON "ops"."job_execution" ("job_name", "started_at" DESC, "id" DESC)`);
    // A tick is run at most once, whatever the scheduler replicas believe.
    await q.query(`CREATE UNIQUE INDEX "uq_job_execution_tick" ON "ops"."job_execution" ("job_name", "scheduled_for") WHERE "trigger" = 'schedule'`);
    await q.query(`CREATE INDEX "ix_job_execution_running" ON "ops"."job_execution" ("lease_until") WHERE "status" = 'running'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "ops"."job_execution"`);
    await q.query(`DROP TABLE "ops"."job_definition"`);
  }
}

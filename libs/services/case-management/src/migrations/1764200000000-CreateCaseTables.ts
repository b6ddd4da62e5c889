import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `cases.litigation_case` and `cases.matter_sequence` (docs/cases.md). The CHECK constraints repeat
 * the contract's rules (case types, statuses, a claim amount > 0, an ISO currency) so a buggy writer
 * cannot store what the API would refuse; the enum lists are literal here on purpose: a migration is
 * frozen, and a new case type is a new migration. The indexes serve the list route: every query
 * starts with the tenant, then the owner (DataScope `own`), the office (`office`) or the page order.
 */
export class CreateCaseTables1764200000000 implements MigrationInterface {
  name = 'CreateCaseTables1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "cases"`);
    await q.query(`
      CREATE TABLE "cases"."litigation_case" (
        "id" uuid PRIMARY KEY,
        "tenant_id" varchar(64) NOT NULL,
        "matter_number" varchar(32) NOT NULL,
        "title" varchar(200) NOT NULL,
        "case_type" varchar(32) NOT NULL,
        "claim_amount" numeric(15,2) NOT NULL,
        "currency" char(3) NOT NULL,
        "defendant_name" varchar(200) NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT 'open',
        "owner" varchar(255) NOT NULL,
        "office_id" varchar(64),
        "created_by" varchar(255) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ck_litigation_case_matter_number" CHECK ("matter_number" ~ '^LIT-[0-9]{4}-[0-9]{6,}$'),
        CONSTRAINT "ck_litigation_case_title" CHECK (length(btrim("title")) > 0),
        CONSTRAINT "ck_litigation_case_type" CHECK ("case_type" IN ('civil', 'commercial', 'labor', 'intellectual-property', 'administrative', 'arbitration')),
        CONSTRAINT "ck_litigation_case_claim_amount" CHECK ("claim_amount" > 0),
        CONSTRAINT "ck_litigation_case_currency" CHECK ("currency" ~ '^[A-Z]{3}$'),
        CONSTRAINT "ck_litigation_case_defendant" CHECK (length(btrim("defendant_name")) > 0),
        CONSTRAINT "ck_litigation_case_status" CHECK ("status" IN ('open', 'in-progress', 'closed'))
      )`);
    await q.query(`CREATE UNIQUE INDEX "uq_litigation_case_matter_number" ON "cases"."litigation_case" ("tenant_id", "matter_number")`);
    await q.query(`CREATE INDEX "ix_litigation_case_tenant_created" ON "cases"."litigation_case" ("tenant_id", "created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX "ix_litigation_case_tenant_owner" ON "cases"."litigation_case" ("tenant_id", "owner")`);
    await q.query(`CREATE INDEX "ix_litigation_case_tenant_office" ON "cases"."litigation_case" ("tenant_id", "office_id")`);
    // One counter per tenant and year: the upsert that draws a number locks this row until the
    // case's transaction ends, so concurrent creates serialize here and a rolled-back create gives
    // its number back (no gaps, no duplicates).
    await q.query(`
      CREATE TABLE "cases"."matter_sequence" (
        "tenant_id" varchar(64) NOT NULL,
        "year" integer NOT NULL,
        "last_value" bigint NOT NULL,
        PRIMARY KEY ("tenant_id", "year"),
        CONSTRAINT "ck_matter_sequence_year" CHECK ("year" BETWEEN 1000 AND 9999),
        CONSTRAINT "ck_matter_sequence_value" CHECK ("last_value" > 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "cases"."matter_sequence"`);
    await q.query(`DROP TABLE "cases"."litigation_case"`);
  }
}

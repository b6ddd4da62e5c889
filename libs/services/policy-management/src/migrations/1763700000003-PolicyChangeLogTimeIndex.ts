import { MigrationInterface, QueryRunner } from 'typeorm';

/** The change log's retention purge deletes by age across tenants: this index serves it. */
export class PolicyChangeLogTimeIndex1763700000003 implements MigrationInterface {
  name = 'PolicyChangeLogTimeIndex1763700000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_policy_change_log_occurred_at" ON "authz"."policy_change_log" ("occurred_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "authz"."ix_policy_change_log_occurred_at"`);
  }
}

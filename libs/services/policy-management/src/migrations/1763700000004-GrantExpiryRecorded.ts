import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the grant-expiry job recorded that a temporary grant or a delegation ran out (`expired_at`),
 * so the end is an event and a change-log entry like a revocation, and a second run finds nothing.
 * Decisions keep ignoring a grant past `expires_at` by time whether or not the job ran yet. The
 * partial indexes hold only the rows still recorded as active: the job's scan stays small however
 * many ended grants are kept.
 */
export class GrantExpiryRecorded1763700000004 implements MigrationInterface {
  name = 'GrantExpiryRecorded1763700000004';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['temporary_grant', 'delegated_grant']) {
      await q.query(`ALTER TABLE "authz"."${table}" ADD COLUMN "expired_at" timestamptz NULL`);
      await q.query(`CREATE INDEX "ix_${table}_active_expiry" ON "authz"."${table}" ("expires_at") WHERE "revoked_at" IS NULL AND "expired_at" IS NULL`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['temporary_grant', 'delegated_grant']) {
      await q.query(`DROP INDEX "authz"."ix_${table}_active_expiry"`);
      await q.query(`ALTER TABLE "authz"."${table}" DROP COLUMN "expired_at"`);
    }
  }
}

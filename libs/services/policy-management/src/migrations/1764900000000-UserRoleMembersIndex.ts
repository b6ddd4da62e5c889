import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /roles/{roleId}/members` pages a role's holders by subject: with the subject in the role's
 * index, a page is read in order instead of sorting every holder. It replaces the role-only index
 * (the cascade from a role and the role's member lookups use its leading column alike).
 */
export class UserRoleMembersIndex1764900000000 implements MigrationInterface {
  name = 'UserRoleMembersIndex1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_user_role_role_subject" ON "authz"."user_role" ("role_id", "subject")`);
    await q.query(`DROP INDEX "authz"."ix_user_role_role"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_user_role_role" ON "authz"."user_role" ("role_id")`);
    await q.query(`DROP INDEX "authz"."ix_user_role_role_subject"`);
  }
}

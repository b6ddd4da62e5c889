import { DataSource } from 'typeorm';
import { initializeServiceDataSource, serviceDataSourceOptions } from '@lp/platform/persistence';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { policyManagementService } from '../src/policy-management.service-definition';
import { RoleEntity } from '../src/policy-store/entities/role.entity';
import { AbacRuleEntity, FeatureOverrideEntity, TemporaryGrantEntity, UserRoleEntity } from '../src/policy-store';

describeWithServers(['postgres'], 'policy tables (migration CreatePolicyTables)', () => {
  let migratedDb: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    migratedDb = await createTestDatabase(testServerUrls.postgres, testRunId('pm_policy'));
    ds = await initializeServiceDataSource(new DataSource(serviceDataSourceOptions({ url: migratedDb.url, ...policyManagementService.database, poolSize: 2 })));
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await migratedDb?.drop();
  });

  /** Runs `sql` expecting PostgreSQL to refuse it with an error naming `message` (a constraint). */
  async function refused(sql: string, params: unknown[], message: string): Promise<void> {
    await expect(ds.query(sql, params)).rejects.toThrow(message);
  }

  it('maps every entity onto the migrated columns (only constraints and indexes live in the migration alone)', async () => {
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    const columnChanges = pending.filter((q) => !/^ALTER TABLE "authz"\."\w+" DROP CONSTRAINT "\w+"$|^DROP INDEX "authz"\."\w+"$/.test(q));
    expect(columnChanges).toEqual([]);
  });

  it('gives every tenant table an index that leads with tenant_id', async () => {
    const rows: { table: string; leading: boolean }[] = await ds.query(
      `SELECT t."relname" AS "table",
              bool_or(a."attname" = 'tenant_id') AS "leading"
         FROM pg_class t
         JOIN pg_namespace n ON n."oid" = t."relnamespace" AND n."nspname" = 'authz'
         JOIN pg_index i ON i."indrelid" = t."oid"
         JOIN pg_attribute a ON a."attrelid" = t."oid" AND a."attnum" = i."indkey"[0]
        WHERE EXISTS (SELECT 1 FROM pg_attribute c WHERE c."attrelid" = t."oid" AND c."attname" = 'tenant_id' AND NOT c."attisdropped")
        GROUP BY t."relname" ORDER BY 1`,
    );
    // Every table of the schema but the two global ones (the catalog and feature definitions).
    const tenantTables = [
      'abac_rule',
      'delegated_grant',
      'feature_override',
      'field_policy',
      'permission_request',
      'policy_change_log',
      'resource_relation',
      'role',
      'role_permission',
      'subject_office',
      'temporary_grant',
      'tenant_status',
      'user_role',
    ];
    expect(rows.map((r) => r.table)).toEqual(tenantTables.sort());
    expect(rows.filter((r) => !r.leading)).toEqual([]);
  });

  describe('integrity', () => {
    let roleId: string;
    let permissionId: string;

    beforeAll(async () => {
      const role = await ds.getRepository(RoleEntity).save({ tenantId: 'acme', name: 'clerk', description: null, dataScope: 'office' });
      roleId = role.id;
      [{ id: permissionId }] = await ds.query(
        `INSERT INTO "authz"."permission" ("code", "module", "resource", "action") VALUES ('cases.case.view', 'cases', 'case', 'View') RETURNING "id"`,
      );
      await ds.query(
        `INSERT INTO "authz"."role_permission" ("tenant_id", "role_id", "role_name", "permission_id", "permission_code", "module", "created_by")
         VALUES ('acme', $1, 'clerk', $2, 'cases.case.view', 'cases', 'seed')`,
        [roleId, permissionId],
      );
      await ds.getRepository(UserRoleEntity).save({ tenantId: 'acme', subject: 'alice', roleId, roleName: 'clerk', createdBy: 'admin' });
    });

    it('keeps the copied role name in step when the role is renamed, and drops relations with the role', async () => {
      await ds.getRepository(RoleEntity).update(roleId, { name: 'case-clerk' });
      expect(await ds.query(`SELECT "role_name" FROM "authz"."user_role" WHERE "role_id" = $1`, [roleId])).toEqual([{ role_name: 'case-clerk' }]);
      expect(await ds.query(`SELECT "role_name" FROM "authz"."role_permission" WHERE "role_id" = $1`, [roleId])).toEqual([{ role_name: 'case-clerk' }]);

      const doomed = await ds.getRepository(RoleEntity).save({ tenantId: 'acme', name: 'doomed', description: null, dataScope: 'none' });
      await ds.getRepository(UserRoleEntity).save({ tenantId: 'acme', subject: 'alice', roleId: doomed.id, roleName: 'doomed', createdBy: 'admin' });
      await ds.getRepository(RoleEntity).delete(doomed.id);
      expect(await ds.getRepository(UserRoleEntity).countBy({ roleId: doomed.id })).toBe(0);
    });

    it('refuses a binding whose tenant or role name disagrees with the role', async () => {
      await refused(
        `INSERT INTO "authz"."user_role" ("tenant_id", "subject", "role_id", "role_name", "created_by") VALUES ('globex', 'mallory', $1, 'case-clerk', 'x')`,
        [roleId],
        'fk_user_role_role',
      );
      await refused(
        `INSERT INTO "authz"."user_role" ("tenant_id", "subject", "role_id", "role_name", "created_by") VALUES ('acme', 'mallory', $1, 'admin', 'x')`,
        [roleId],
        'fk_user_role_role',
      );
    });

    it('refuses a role-permission whose code or module disagrees with the catalog, and a code that is not its parts', async () => {
      const [{ id: updateId }] = await ds.query(
        `INSERT INTO "authz"."permission" ("code", "module", "resource", "action") VALUES ('cases.case.update', 'cases', 'case', 'Update') RETURNING "id"`,
      );
      const grant = `INSERT INTO "authz"."role_permission" ("tenant_id", "role_id", "role_name", "permission_id", "permission_code", "module", "created_by")
                     VALUES ('acme', $1, 'case-clerk', $2, $3, $4, 'x')`;
      await refused(grant, [roleId, updateId, 'cases.case.view', 'cases'], 'fk_role_permission_permission');
      await refused(grant, [roleId, updateId, 'cases.case.update', 'billing'], 'fk_role_permission_permission');
      await ds.query(grant, [roleId, updateId, 'cases.case.update', 'cases']);
      await refused(
        `INSERT INTO "authz"."permission" ("code", "module", "resource", "action") VALUES ('cases.case.view2', 'cases', 'case', 'View')`,
        [],
        'ck_permission_code',
      );
    });

    it('accepts only the role data-scope settings (no `instances`) on roles and temporary grants', async () => {
      await refused(`UPDATE "authz"."role" SET "data_scope" = 'instances' WHERE "id" = $1`, [roleId], 'ck_role_data_scope');
      const grant = { tenantId: 'acme', subject: 'alice', permissionCodes: ['cases.case.view'], reason: 'r', expiresAt: new Date('2999-01-01T00:00:00Z') };
      await expect(
        ds
          .getRepository(TemporaryGrantEntity)
          .save({ ...grant, dataScope: 'instances' as 'own', revokedAt: null, source: 'manual', sourceId: null, createdBy: 'a' }),
      ).rejects.toThrow('ck_temporary_grant_data_scope');
      const saved = await ds
        .getRepository(TemporaryGrantEntity)
        .save({ ...grant, dataScope: null, revokedAt: null, source: 'permission-request', sourceId: 'req-1', createdBy: 'workflow' });
      expect(await ds.getRepository(TemporaryGrantEntity).findOneByOrFail({ id: saved.id })).toMatchObject({
        permissionCodes: ['cases.case.view'],
        dataScope: null,
        expiresAt: grant.expiresAt,
      });
      // The same approved request cannot grant twice.
      await expect(
        ds
          .getRepository(TemporaryGrantEntity)
          .insert({ ...grant, dataScope: null, revokedAt: null, source: 'permission-request', sourceId: 'req-1', createdBy: 'workflow' }),
      ).rejects.toThrow('uq_temporary_grant_source');
    });

    it('stores ABAC verdicts and condition field/operator only as integers', async () => {
      const rules = ds.getRepository(AbacRuleEntity);
      const base = {
        tenantId: 'acme',
        name: 'r',
        description: null,
        priority: 1,
        actions: ['View'],
        modules: [],
        resourceTypes: [],
        obligations: [],
        enabled: true,
      };
      const saved = await rules.save({
        ...base,
        verdict: 2,
        conditions: [
          { field: 2, operator: 5, value: 1000 },
          { field: 10, operator: 9 },
        ],
      });
      expect(await rules.findOneByOrFail({ id: saved.id })).toMatchObject({
        verdict: 2,
        conditions: [
          { field: 2, operator: 5, value: 1000 },
          { field: 10, operator: 9 },
        ],
        actions: ['View'],
        modules: [],
      });
      await expect(rules.insert({ ...base, verdict: 0, conditions: [] })).rejects.toThrow('ck_abac_rule_verdict');
      await expect(
        rules.insert({ ...base, verdict: 1, conditions: [{ field: 'ResourceStatus' as unknown as number, operator: 1, value: 'x' }] }),
      ).rejects.toThrow('ck_abac_rule_conditions');
      await expect(rules.insert({ ...base, verdict: 1, conditions: [{ field: 1.5, operator: 1, value: 'x' }] })).rejects.toThrow('ck_abac_rule_conditions');
      await expect(rules.insert({ ...base, verdict: 1, conditions: [{ operator: 1 } as never] })).rejects.toThrow('ck_abac_rule_conditions');
      await refused(
        `INSERT INTO "authz"."abac_rule" ("tenant_id", "name", "priority", "verdict", "conditions") VALUES ('acme', 'r', 1, 1, '{"field": 1}')`,
        [],
        'ck_abac_rule_conditions',
      );
    });

    it('keeps a feature override only for a defined feature, and one per tenant', async () => {
      await ds.query(`INSERT INTO "authz"."feature_definition" ("code", "description", "default_enabled") VALUES ('chat', 'Chat', false)`);
      const overrides = ds.getRepository(FeatureOverrideEntity);
      await overrides.insert({ tenantId: 'acme', featureCode: 'chat', enabled: true, updatedBy: 'admin' });
      await expect(overrides.insert({ tenantId: 'acme', featureCode: 'chat', enabled: false, updatedBy: 'admin' })).rejects.toThrow('pk_feature_override');
      await expect(overrides.insert({ tenantId: 'acme', featureCode: 'video', enabled: true, updatedBy: 'admin' })).rejects.toThrow(
        'fk_feature_override_feature',
      );
    });

    it('keeps one row per relation and accepts only owner, member, viewer', async () => {
      const insert = `INSERT INTO "authz"."resource_relation" ("tenant_id", "subject", "resource_type", "resource_id", "relation", "created_by") VALUES ('acme', 'alice', 'case', 'c-1', $1, 'x')`;
      await ds.query(insert, ['owner']);
      await ds.query(insert, ['viewer']);
      await refused(insert, ['owner'], 'uq_resource_relation');
      await refused(insert, ['admin'], 'ck_resource_relation_relation');
    });

    it('refuses a delegation to oneself and a grant without codes', async () => {
      await refused(
        `INSERT INTO "authz"."delegated_grant" ("tenant_id", "delegator", "actor", "permission_codes", "expires_at") VALUES ('acme', 'alice', 'alice', '{cases.case.view}', now())`,
        [],
        'ck_delegated_grant_actor',
      );
      await refused(
        `INSERT INTO "authz"."delegated_grant" ("tenant_id", "delegator", "actor", "permission_codes", "expires_at") VALUES ('acme', 'alice', 'bob', '{}', now())`,
        [],
        'ck_delegated_grant_permissions',
      );
    });
  });

  // Last: it takes the tables away and puts them back.
  it('reverts cleanly and migrates again', async () => {
    // Every migration after the policy tables, newest first, then the policy tables themselves.
    for (let undone = ''; undone !== 'CreatePolicyTables1763700000001';) {
      const [last]: { name: string }[] = await ds.query(`SELECT "name" FROM "authz"."schema_migrations" ORDER BY "id" DESC LIMIT 1`);
      if (!last) throw new Error('the policy tables migration was never run');
      await ds.undoLastMigration({ transaction: 'each' });
      undone = last.name;
    }
    const left: { table_name: string }[] = await ds.query(`SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = 'authz' ORDER BY 1`);
    expect(left.map((r) => r.table_name)).toEqual(['outbox_message', 'processed_event', 'role', 'schema_migrations']);
    expect(await ds.query(`SELECT "conname" FROM pg_constraint WHERE "conname" IN ('ck_role_data_scope', 'uq_role_id_tenant_name')`)).toEqual([]);
    await initializeServiceDataSource(ds);
    // Applied in the order of their timestamps (the last 13 digits of the name), not of the list.
    const newest = ds.migrations.map((m) => m.name ?? '').sort((a, b) => Number(a.slice(-13)) - Number(b.slice(-13)));
    expect((await ds.query(`SELECT "name" FROM "authz"."schema_migrations" ORDER BY "id"`)).map((r: { name: string }) => r.name).at(-1)).toBe(newest.at(-1));
  });
});

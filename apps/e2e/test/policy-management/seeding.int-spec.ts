import { PERMISSION_CATALOG, PLATFORM_ADMIN_ROLE, SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { CatalogIds, CatalogSeeder } from '@lp/service/policy-management';
import { describeWithServers } from '@lp/platform/testing';
import { PermissionCollector } from '@lp/authz-guard';
import { createServiceApp } from '@lp/platform/runtime';
import { policyManagementService } from '@lp/service/policy-management';
import { PolicyTestPlatform } from '../support/policy-platform';

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management seeding', () => {
  const platform = new PolicyTestPlatform('seed');
  beforeAll(() => platform.start(), 90_000);
  afterAll(() => platform.stop());

  const snapshot = () =>
    platform.sql.query(`
      SELECT (SELECT jsonb_agg(jsonb_build_array(id, code) ORDER BY code) FROM authz.permission) AS permissions,
             (SELECT jsonb_agg(jsonb_build_array(id, tenant_id, name) ORDER BY id) FROM authz.role) AS roles,
             (SELECT count(*)::int FROM authz.role_permission) AS grants,
             (SELECT count(*)::int FROM authz.user_role) AS bindings,
             (SELECT count(*)::int FROM authz.feature_definition) AS features`);

  it('seeds the whole catalog with ids derived from the codes, and platform-admin bound to admin in tenant default', async () => {
    const rows: Array<{ id: string; code: string }> = await platform.sql.query(`SELECT id, code FROM authz.permission ORDER BY code`);
    expect(rows.map((r) => r.code)).toEqual(expect.arrayContaining(PERMISSION_CATALOG.map((p) => p.code)));
    for (const row of rows) expect(row.id).toBe(CatalogIds.permission(row.code));
    const held: Array<{ n: number }> = await platform.sql.query(
      `SELECT count(*)::int AS n FROM authz.role_permission rp JOIN authz.role r ON r.id = rp.role_id WHERE r.tenant_id = $1 AND r.name = $2`,
      [SEEDED_TENANT, PLATFORM_ADMIN_ROLE],
    );
    expect(held[0]!.n).toBe(rows.length);
    expect(
      await platform.count('user_role', `tenant_id = $1 AND subject = $2 AND role_name = $3`, [SEEDED_TENANT, SEEDED_ADMIN_SUBJECT, PLATFORM_ADMIN_ROLE]),
    ).toBe(1);
    await platform.as().get('/api/authorization/roles').expect(200);
  });

  it('is idempotent: seeding again, and two instances seeding at once, leave the same rows and record nothing', async () => {
    const before = await snapshot();
    const logBefore = await platform.count('policy_change_log');
    const outboxBefore = await platform.count('outbox_message');
    const seeder = platform.policy.app.get(CatalogSeeder);
    const second = await createServiceApp(policyManagementService, platform.runtime); // seeds at start
    try {
      const reports = await Promise.all([seeder.seed(), second.app.get(CatalogSeeder).seed()]);
      for (const report of reports) {
        expect(report).toEqual({
          permissionsAdded: [],
          featuresAdded: [],
          adminRoleCreated: false,
          adminPermissionsAdded: 0,
          adminBound: false,
          platformPermissionsWithdrawn: 0,
        });
      }
    } finally {
      await second.app.close();
    }
    expect(await snapshot()).toEqual(before);
    expect(await platform.count('policy_change_log')).toBe(logBefore);
    expect(await platform.count('outbox_message')).toBe(outboxBefore);
  });

  it('puts back a revoked admin binding and records it with its event', async () => {
    await platform.sql.query(`DELETE FROM authz.user_role WHERE tenant_id = $1 AND subject = $2`, [SEEDED_TENANT, SEEDED_ADMIN_SUBJECT]);
    const report = await platform.policy.app.get(CatalogSeeder).seed();
    expect(report.adminBound).toBe(true);
    expect(await platform.count('outbox_message', `event_type = 'authorization.user-role.assigned'`)).toBeGreaterThanOrEqual(2);
  });

  it('gives a test tenant its own admin through the harness, invisible to tenant default', async () => {
    await platform.as('zed', 'acme').get('/api/authorization/roles').expect(403);
    await platform.seedTenantAdmin('acme', 'zed');
    const res = await platform.as('zed', 'acme').get('/api/authorization/roles').expect(200);
    expect(res.body.items.map((r: { name: string }) => r.name)).toEqual(['tenant-admin']);
  });

  // Issue 31: tenants bootstrapped while operations.jobs.* was tenant-level hold it in tenant-admin.
  it('withdraws platform-level codes from roles of other tenants, recorded as revocations with their events; the platform tenant keeps them', async () => {
    const jobs = ['operations.jobs.manage', 'operations.jobs.view'];
    await platform.grantRole('globex', 'gwen', 'tenant-admin', [...jobs, 'cases.case.view']);
    const held = (tenantId: string, roleName: string) =>
      platform.sql
        .query(`SELECT permission_code FROM authz.role_permission WHERE tenant_id = $1 AND role_name = $2 ORDER BY permission_code`, [tenantId, roleName])
        .then((rows: Array<{ permission_code: string }>) => rows.map((r) => r.permission_code));
    const outsidePlatform = () =>
      platform.count('role_permission', `tenant_id <> $1 AND permission_code = ANY($2::varchar[])`, [
        SEEDED_TENANT,
        PERMISSION_CATALOG.filter((p) => p.level === 'platform').map((p) => p.code),
      ]);
    const outboxBefore = await platform.count('outbox_message', `event_type = 'authorization.role-permission.changed'`);
    // globex's two, and whatever the harness gave other tenants' roles (it grants the whole catalog).
    const rows = await outsidePlatform();
    expect(rows).toBeGreaterThanOrEqual(2);

    const report = await platform.policy.app.get(CatalogSeeder).seed();
    expect(report.platformPermissionsWithdrawn).toBe(rows);
    expect(await outsidePlatform()).toBe(0);
    expect(await held('globex', 'tenant-admin')).toEqual(['cases.case.view']);
    expect(await held(SEEDED_TENANT, PLATFORM_ADMIN_ROLE)).toEqual(expect.arrayContaining(jobs));
    const log = await platform.sql.query(
      `SELECT actor, before->>'permissionCode' AS code FROM authz.policy_change_log WHERE tenant_id = 'globex' AND change = 'role-permission.revoked' ORDER BY 2`,
    );
    expect(log).toEqual(jobs.map((code) => ({ actor: 'policy-management:seed', code })));
    expect(await platform.count('outbox_message', `event_type = 'authorization.role-permission.changed'`)).toBe(outboxBefore + rows);
    expect((await platform.policy.app.get(CatalogSeeder).seed()).platformPermissionsWithdrawn).toBe(0);
  });

  it('holds every permission any service declares: a declared code missing from the contract catalog fails here', () => {
    const catalog = new Set(PERMISSION_CATALOG.map((p) => p.code));
    const apps = [platform.policy, ...platform.decisionInstances];
    const missing = apps.flatMap((a) =>
      a.app
        .get(PermissionCollector)
        .collect()
        .filter((d) => !catalog.has(d.code))
        .map((d) => `${d.code} (declared by ${d.declaredBy.join(', ')})`),
    );
    expect(missing).toEqual([]);
    // And the policy-management app declares something, so the check above is not vacuous.
    expect(platform.policy.app.get(PermissionCollector).collect().length).toBeGreaterThan(0);
  });
});

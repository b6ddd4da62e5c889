import { PERMISSION_CATALOG, PLATFORM_TENANT } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { expectProblem, PolicyTestPlatform } from '../support/policy-platform';

const BASE = '/api/authorization';
const PLATFORM_CODES = PERMISSION_CATALOG.filter((p) => p.level === 'platform').map((p) => p.code);
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

// Issue: an application of tenant acme holding role.create, role-permission.grant and
// user-role.assign could build a role holding authorization.feature-default.update, bind it, and
// switch chat off for every tenant. Platform-level permissions now stay in the platform tenant.
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'platform-level permissions never reach a tenant', () => {
  const platform = new PolicyTestPlatform('platform-perms');
  beforeAll(async () => {
    await platform.start();
    // ann administers acme with every tenant-level permission (the bootstrap's tenant-admin).
    await platform.grantRole(
      'acme',
      'ann',
      'tenant-admin',
      PERMISSION_CATALOG.filter((p) => p.level === 'tenant').map((p) => p.code),
    );
  }, 90_000);
  afterAll(() => platform.stop());

  it('replays the reported escalation: the grant is refused with 422 and chat stays on for tenant default', async () => {
    const app = platform.as('escalator', 'acme', {
      clientId: 'escalator',
      scopes: ['authorization.role.create', 'authorization.role-permission.grant', 'authorization.user-role.assign'],
    });
    const role = await app.post(`${BASE}/roles`).send({ name: 'global-switch' }).expect(201);
    const refused = await app.post(`${BASE}/roles/${role.body.id}/permissions`).send({ permissionCode: 'authorization.feature-default.update' });
    expectProblem(refused, 422, 'Authorization.PermissionPlatformOnly');
    expect(await platform.count('role_permission', `role_id = $1`, [role.body.id])).toBe(0);
    const [chat] = await platform.sql.query(`SELECT default_enabled FROM authz.feature_definition WHERE code = 'chat'`);
    expect(chat.default_enabled).toBe(true);
  });

  // Issue 31: every tenant-admin held the fleet's job permissions and could pass them on.
  it.each(['operations.jobs.view', 'operations.jobs.manage'])(
    "%s is platform-level: a tenant administrator's grant to a role of its tenant is refused (422) and writes nothing",
    async (code) => {
      const role = await platform
        .as('ann', 'acme')
        .post(`${BASE}/roles`)
        .send({ name: `jobs-${code.split('.')[2]}` })
        .expect(201);
      expectProblem(
        await platform.as('ann', 'acme').post(`${BASE}/roles/${role.body.id}/permissions`).send({ permissionCode: code }),
        422,
        'Authorization.PermissionPlatformOnly',
      );
      expect(await platform.count('role_permission', `role_id = $1`, [role.body.id])).toBe(0);
      // So the checks over every platform-level code below (delegations, requests) cover it too.
      expect(PLATFORM_CODES).toContain(code);
    },
  );

  it.each(PLATFORM_CODES)('%s: a tenant role cannot be granted it (422), a platform role can', async (code) => {
    const tenantRole = await platform
      .as('ann', 'acme')
      .post(`${BASE}/roles`)
      .send({ name: `r-${code.replace(/\./g, '-')}` })
      .expect(201);
    expectProblem(
      await platform.as('ann', 'acme').post(`${BASE}/roles/${tenantRole.body.id}/permissions`).send({ permissionCode: code }),
      422,
      'Authorization.PermissionPlatformOnly',
    );
    const platformRole = await platform
      .as()
      .post(`${BASE}/roles`)
      .send({ name: `p-${code.replace(/\./g, '-')}` })
      .expect(201);
    await platform.as().post(`${BASE}/roles/${platformRole.body.id}/permissions`).send({ permissionCode: code }).expect(204);
  });

  it.each(PLATFORM_CODES)('%s: no delegation or permission request carries it into a tenant (422)', async (code) => {
    expectProblem(
      await platform
        .as('ann', 'acme')
        .post(`${BASE}/delegated-admin`)
        .send({ actor: 'bea', permissionCodes: [code], expiresAt: inOneHour() }),
      422,
      'Authorization.PermissionPlatformOnly',
    );
    expectProblem(
      await platform
        .as('ann', 'acme')
        .post(`${BASE}/permission-requests`)
        .send({ permissionCodes: [code], durationSeconds: 600, reason: 'need it' }),
      422,
      'Authorization.PermissionPlatformOnly',
    );
  });

  it('a tenant role that holds a platform permission anyway (written around the API) is still denied: no global feature change', async () => {
    await platform.grantRole('acme', 'mallory', 'smuggled', ['authorization.feature.update', 'authorization.feature-default.update']);
    const res = await platform.as('mallory', 'acme').put(`${BASE}/features/chat`).send({ enabled: false, scope: 'global' });
    expectProblem(res, 403, 'Authorization.Denied');
    const [row] = await platform.sql.query(`SELECT default_enabled FROM authz.feature_definition WHERE code = 'chat'`);
    expect(row.default_enabled).toBe(true);
    expect(await platform.count('policy_change_log', `change = 'feature.global-changed' AND target_id = 'chat'`)).toBe(0);
  });

  it('the platform administrator of the platform tenant keeps every platform-level permission', async () => {
    expect(PLATFORM_TENANT).toBe('default');
    await platform.as().put(`${BASE}/features/reporting`).send({ enabled: true, scope: 'global' }).expect(200);
  });
});

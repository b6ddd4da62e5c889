import { isPlatformPermission, AuthzRpc, TENANT_LEVEL_PERMISSIONS, TenantBootstrapResult, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const caller = (subject: string, tenantId: string): TrustedCaller => ({ kind: 'user', subject, tenantId, scopes: [], claimsDigest: `${tenantId}:${subject}` });

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'authz.tenant.bootstrap: a new tenant gets its first administrator', () => {
  const platform = new PolicyTestPlatform('tenant-boot');
  let rpc: RpcClient;
  const bootstrap = (as: TrustedCaller, payload: object) =>
    rpc.send<TenantBootstrapResult>(AuthzRpc.tenantBootstrap.pattern, { caller: as, payload }, { service: AuthzRpc.tenantBootstrap.service });
  const changeLog = () => platform.count('policy_change_log', `tenant_id = 'globex'`);

  beforeAll(async () => {
    await platform.start();
    rpc = platform.policy.app.get(RpcClient);
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  it('creates tenant-admin with every tenant-level permission, binds the named subject, who can administer at once', async () => {
    await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(403);
    const result = await bootstrap(caller('admin', 'default'), { tenantId: 'globex', adminSubject: 'gwen' });
    expect(result).toEqual(
      expect.objectContaining({
        tenantId: 'globex',
        roleName: 'tenant-admin',
        adminSubject: 'gwen',
        created: { role: true, permissions: TENANT_LEVEL_PERMISSIONS.length, binding: true },
      }),
    );
    const codes: string[] = (
      await platform.sql.query(`SELECT permission_code FROM authz.role_permission WHERE tenant_id = 'globex' AND role_id = $1`, [result.roleId])
    ).map((r: { permission_code: string }) => r.permission_code);
    expect(codes.sort()).toEqual(TENANT_LEVEL_PERMISSIONS.map((p) => p.code).sort());
    expect(codes.some(isPlatformPermission)).toBe(false);
    // Changes were recorded by the platform administrator, and published through the outbox.
    const [log] = await platform.sql.query(`SELECT actor FROM authz.policy_change_log WHERE tenant_id = 'globex' AND change = 'user-role.assigned'`);
    expect(log.actor).toBe('admin');
    // Decided on the new policy on the very next request.
    await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);
    await platform.as('gwen', 'globex').put('/api/authorization/features/chat').send({ enabled: false, scope: 'global' }).expect(403);
  });

  it('is idempotent: a second call writes and records nothing', async () => {
    const logBefore = await changeLog();
    const outboxBefore = await platform.count('outbox_message');
    const again = await bootstrap(caller('admin', 'default'), { tenantId: 'globex', adminSubject: 'gwen' });
    expect(again.created).toEqual({ role: false, permissions: 0, binding: false });
    expect(await changeLog()).toBe(logBefore);
    expect(await platform.count('outbox_message')).toBe(outboxBefore);
    expect(await platform.count('role', `tenant_id = 'globex'`)).toBe(1);
  });

  it('is denied to every caller outside the platform tenant, even a tenant administrator, and to platform users without the permission', async () => {
    for (const who of [caller('ann', 'acme'), caller('bob', 'default')]) {
      await expect(bootstrap(who, { tenantId: 'initech', adminSubject: 'ian' })).rejects.toMatchObject({
        problem: { status: 403, code: 'Authorization.Denied' },
      });
    }
    expect(await platform.count('role', `tenant_id = 'initech'`)).toBe(0);
  });

  it.each([
    [{ tenantId: 'default', adminSubject: 'x' }, 'tenantId'],
    [{ tenantId: 'Bad Tenant', adminSubject: 'x' }, 'tenantId'],
    [{ tenantId: 'initech' }, 'adminSubject'],
    [{ tenantId: 'initech', adminSubject: 'a\u0000b' }, 'adminSubject'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    await expect(bootstrap(caller('admin', 'default'), payload)).rejects.toMatchObject({
      problem: { status: 400, code: 'Validation.Failed', errors: { [field]: expect.any(Array) } },
    });
  });
});

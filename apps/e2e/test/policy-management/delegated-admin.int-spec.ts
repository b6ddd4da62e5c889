import { EventTypes } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { expectProblem, PolicyTestPlatform } from '../support/policy-platform';

const BASE = '/api/authorization/delegated-admin';
const ROLE_VIEW = 'authorization.role.view';
const ROLE_CREATE = 'authorization.role.create';
const ROLE_DELETE = 'authorization.role.delete';
const MANAGE = 'authorization.delegated-admin.manage';

const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management delegated admin', () => {
  const platform = new PolicyTestPlatform('delegated-admin');
  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  const written = async () => ({
    grants: await platform.count('delegated_grant'),
    revoked: await platform.count('delegated_grant', 'revoked_at IS NOT NULL'),
    log: await platform.count('policy_change_log'),
    outbox: await platform.count('outbox_message'),
  });

  const delegate = (body: object, sub = 'admin', tenant = 'default') => platform.as(sub, tenant).post(BASE).send(body);

  it('lets the actor act for the delegator for the delegated codes only, and stops at once on revoke', async () => {
    const frank = () => platform.as('admin', 'default', { actor: 'frank' });
    await frank().get('/api/authorization/roles').expect(403);

    const res = await delegate({ actor: 'frank', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour(), reason: 'holiday cover' }).expect(201);
    expect(res.body).toMatchObject({
      delegator: 'admin',
      actor: 'frank',
      permissionCodes: [ROLE_VIEW],
      reason: 'holiday cover',
      status: 'active',
      revokedAt: null,
    });
    const id = res.body.id as string;

    const [log] = await platform.sql.query(`SELECT actor, change, target_type, target_id, after FROM authz.policy_change_log WHERE target_id = $1`, [id]);
    expect(log).toMatchObject({ actor: 'admin', change: 'delegation.granted', target_type: 'delegated-grant' });
    expect(log.after).toMatchObject({ id, actor: 'frank' });
    const events = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'delegationId' = $2`, [
      EventTypes.authorization.delegationChanged,
      id,
    ]);
    expect(events).toHaveLength(1);
    expect(events[0].envelope.payload).toEqual({ tenantId: 'default', delegationId: id, subjects: ['admin', 'frank'], change: 'granted' });

    // The delegated code is permitted; a code the delegator holds but did not delegate is not.
    await frank().get('/api/authorization/roles').expect(200);
    expectProblem(await frank().get(BASE), 403, 'Authorization.Denied');
    // Another actor, or the delegation named by a different grant id, gets nothing.
    await platform.as('admin', 'default', { actor: 'gina' }).get('/api/authorization/roles').expect(403);
    await platform.as('admin', 'default', { actor: 'frank', grantId: '00000000-0000-4000-8000-000000000000' }).get('/api/authorization/roles').expect(403);
    await platform.as('admin', 'default', { actor: 'frank', grantId: id }).get('/api/authorization/roles').expect(200);

    const listed = await platform.as().get(BASE).expect(200);
    expect(listed.body.items.map((d: { id: string }) => d.id)).toContain(id);

    await platform.as().delete(`${BASE}/${id}`).expect(204);
    await frank().get('/api/authorization/roles').expect(403);
    const [row] = await platform.sql.query(`SELECT revoked_at FROM authz.delegated_grant WHERE id = $1`, [id]);
    expect(row.revoked_at).not.toBeNull();
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'delegation.revoked'`, [id])).toBe(1);
    expect(
      await platform.count('outbox_message', `event_type = $1 AND envelope->'payload'->>'delegationId' = $2 AND envelope->'payload'->>'change' = 'revoked'`, [
        EventTypes.authorization.delegationChanged,
        id,
      ]),
    ).toBe(1);
    const after = await platform.as().get(BASE).expect(200);
    expect(after.body.items.find((d: { id: string }) => d.id === id).status).toBe('revoked');

    const before = await written();
    expectProblem(await platform.as().delete(`${BASE}/${id}`), 409, 'Authorization.DelegationAlreadyRevoked');
    expect(await written()).toEqual(before);
  });

  it('refuses to delegate codes the delegator does not hold now (422, nothing written), counting roles and active temporary grants', async () => {
    await platform.grantRole('default', 'dora', 'dora-role', [MANAGE, ROLE_VIEW]);
    await platform.sql.query(
      `INSERT INTO authz.temporary_grant (tenant_id, subject, permission_codes, reason, expires_at, source, created_by) VALUES
         ('default', 'dora', ARRAY[$1], 'test', now() + interval '1 hour', 'test', 'test'),
         ('default', 'dora', ARRAY[$2], 'test', now() - interval '1 second', 'test', 'test')`,
      [ROLE_CREATE, ROLE_DELETE],
    );
    const before = await written();

    const exceeds = await delegate(
      { actor: 'frank', permissionCodes: [ROLE_VIEW, ROLE_DELETE, 'authorization.abac-rule.view'], expiresAt: inOneHour() },
      'dora',
    );
    expectProblem(exceeds, 422, 'Authorization.DelegationExceedsDelegator');
    expect(exceeds.body.detail).toContain(ROLE_DELETE);
    expect(exceeds.body.detail).toContain('authorization.abac-rule.view');
    expect(exceeds.body.detail).not.toContain(ROLE_VIEW);

    const unknown = await delegate({ actor: 'frank', permissionCodes: [ROLE_VIEW, 'authorization.nothing.view'], expiresAt: inOneHour() }, 'dora');
    expectProblem(unknown, 422, 'Authorization.PermissionUnknown');
    expect(unknown.body.detail).toContain('authorization.nothing.view');
    expect(await written()).toEqual(before);

    // Held through a role and through an active temporary grant: accepted.
    const ok = await delegate({ actor: 'frank', permissionCodes: [ROLE_VIEW, ROLE_CREATE], expiresAt: inOneHour() }, 'dora').expect(201);
    expect(ok.body).toMatchObject({ delegator: 'dora', actor: 'frank', permissionCodes: [ROLE_VIEW, ROLE_CREATE] });
    await platform.as('dora', 'default', { actor: 'frank' }).get('/api/authorization/roles').expect(200);
  });

  it('stops covering a code once the delegator loses it, and stops entirely at its expiry', async () => {
    await platform.grantRole('default', 'lena', 'lena-role', [MANAGE, ROLE_VIEW]);
    const { body } = await delegate({ actor: 'max', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }, 'lena').expect(201);
    const max = () => platform.as('lena', 'default', { actor: 'max' });
    await max().get('/api/authorization/roles').expect(200);

    // The delegator loses the code: the delegation no longer widens anything.
    await platform.sql.query(`DELETE FROM authz.user_role WHERE tenant_id = 'default' AND subject = 'lena'`);
    await platform.invalidate(EventTypes.authorization.userRoleRevoked, 'default', { tenantId: 'default', subject: 'lena' });
    await max().get('/api/authorization/roles').expect(403);
    await platform.grantRole('default', 'lena', 'lena-role-2', [ROLE_VIEW]);
    await max().get('/api/authorization/roles').expect(200);

    // Expiry: delegated callers bypass the decision cache, so the first request after it is denied.
    await platform.sql.query(`UPDATE authz.delegated_grant SET expires_at = now() + interval '2 seconds' WHERE id = $1`, [body.id]);
    const [{ expires }] = await platform.sql.query(`SELECT expires_at AS expires FROM authz.delegated_grant WHERE id = $1`, [body.id]);
    await platform.invalidate(EventTypes.authorization.delegationChanged, 'default', { tenantId: 'default', subjects: ['lena', 'max'] });
    await max().get('/api/authorization/roles').expect(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(expires).getTime() - Date.now() + 50)));
    await max().get('/api/authorization/roles').expect(403);
    const listed = await platform.as().get(`${BASE}?scope=tenant&pageSize=100`).expect(200);
    expect(listed.body.items.find((d: { id: string }) => d.id === body.id).status).toBe('expired');
  });

  it('lists what the caller made, what it received, or the whole tenant', async () => {
    await platform.grantRole('default', 'vic', 'vic-role', ['authorization.delegated-admin.view', MANAGE, ROLE_VIEW]);
    const made = await delegate({ actor: 'walt', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }, 'vic').expect(201);
    const toVic = await delegate({ actor: 'vic', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }).expect(201);

    const mine = await platform.as('vic').get(BASE).expect(200);
    expect(mine.body.items.map((d: { id: string }) => d.id)).toEqual([made.body.id]);
    expect(mine.body).toMatchObject({ pageIndex: 0, totalCount: 1 });
    const received = await platform.as('vic').get(`${BASE}?scope=received`).expect(200);
    expect(received.body.items.map((d: { id: string }) => d.id)).toEqual([toVic.body.id]);
    const tenant = await platform.as('vic').get(`${BASE}?scope=tenant&pageSize=100`).expect(200);
    const ids = tenant.body.items.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([made.body.id, toVic.body.id]));
    expect(tenant.body.items.every((d: { delegator: string }) => d.delegator !== 'ann')).toBe(true);
    expectProblem(await platform.as('vic').get(`${BASE}?scope=everyone`), 400, 'Validation.Failed');
  });

  it('a delegate cannot delegate further, even when Manage itself was delegated', async () => {
    await delegate({ actor: 'frank', permissionCodes: [MANAGE, ROLE_VIEW], expiresAt: inOneHour() }).expect(201);
    const before = await written();
    const res = await platform
      .as('admin', 'default', { actor: 'frank' })
      .post(BASE)
      .send({ actor: 'gina', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() });
    expectProblem(res, 403, 'Authorization.DelegationRequiresUser');
    expect(await written()).toEqual(before);
  });

  it('denies every route to a caller without the permission, with nothing changed', async () => {
    const { body } = await delegate({ actor: 'frank', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }).expect(201);
    const before = await written();
    expectProblem(await platform.as('bob').get(BASE), 403, 'Authorization.Denied');
    expectProblem(await delegate({ actor: 'frank', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }, 'bob'), 403, 'Authorization.Denied');
    expectProblem(await platform.as('bob').delete(`${BASE}/${body.id}`), 403, 'Authorization.Denied');
    // Holding Manage does not give Revoke.
    await platform.grantRole('default', 'mona', 'mona-role', [MANAGE, ROLE_VIEW]);
    expectProblem(await platform.as('mona').delete(`${BASE}/${body.id}`), 403, 'Authorization.Denied');
    expect(await written()).toEqual(before);
  });

  it("treats another tenant's delegations as unknown (404, nothing changed) and never lists them", async () => {
    const { body } = await delegate({ actor: 'frank', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }).expect(201);
    const before = await written();
    expectProblem(await platform.as('ann', 'acme').delete(`${BASE}/${body.id}`), 404, 'NotFound');
    expectProblem(await platform.as('ann', 'acme').delete(`${BASE}/2b1f8a0e-6c55-4a4f-9a39-5d1f4f0b7e11`), 404, 'NotFound');
    expect(await written()).toEqual(before);
    const listed = await platform.as('ann', 'acme').get(`${BASE}?scope=tenant`).expect(200);
    expect(listed.body.items).toEqual([]);
    // ann holds every code in acme, but a delegation in acme to admin is acme's, not default's.
    await delegate({ actor: 'admin', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }, 'ann', 'acme').expect(201);
    const own = await platform.as().get(`${BASE}?scope=received`).expect(200);
    expect(own.body.items).toEqual([]);
  });

  it('rejects malformed requests with 400 problem+json and writes nothing', async () => {
    const before = await written();
    const valid = { actor: 'frank', permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() };
    const cases: Array<[object, string]> = [
      [{ permissionCodes: [ROLE_VIEW], expiresAt: inOneHour() }, 'actor'],
      [{ ...valid, extra: 1 }, 'extra'],
      [{ ...valid, actor: 'x'.repeat(256) }, 'actor'],
      [{ ...valid, actor: ' frank' }, 'actor'],
      [{ ...valid, reason: 'r'.repeat(1001) }, 'reason'],
      [{ ...valid, actor: 'admin' }, 'actor'],
      [{ ...valid, permissionCodes: [] }, 'permissionCodes'],
      [{ ...valid, permissionCodes: Array.from({ length: 51 }, (_, i) => `authorization.r${i}.view`) }, 'permissionCodes'],
      [{ ...valid, permissionCodes: [ROLE_VIEW, ROLE_VIEW] }, 'permissionCodes'],
      [{ ...valid, permissionCodes: [7] }, 'permissionCodes'],
      [{ ...valid, expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ ...valid, expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
      [{ ...valid, expiresAt: new Date(Date.now() + 31 * 86400_000).toISOString() }, 'expiresAt'],
    ];
    for (const [body, field] of cases) {
      const res = await delegate(body);
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors ?? {}).some((k) => k.startsWith(field))).toBe(true);
    }
    expectProblem(await platform.as().delete(`${BASE}/not-a-uuid`), 400, 'Validation.Failed');
    expect(await written()).toEqual(before);
  });
});

import request from 'supertest';
import { createServiceApp } from '@lp/platform/runtime';
import { ADMINISTRABLE_PERMISSIONS, CatalogIds, policyManagementService } from '@lp/service/policy-management';
import { AuthzRpc, EventTypes, PLATFORM_ADMIN_ROLE, SEEDED_TENANT, TENANT_ADMIN_ROLE, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const BASE = '/api/authorization';
/** A route guarded in this service by `authorization.permission.view`: what bob is given and loses. */
const GUARDED = `${BASE}/permissions/tree`;
const GUARDED_CODE = 'authorization.permission.view';

interface Snapshot {
  roles: number;
  bindings: number;
  grants: number;
  log: number;
  outbox: number;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management roles, bindings and role permissions', () => {
  const platform = new PolicyTestPlatform('roles');
  const admin = () => platform.as();
  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  const snapshot = async (): Promise<Snapshot> => ({
    roles: await platform.count('role'),
    bindings: await platform.count('user_role'),
    grants: await platform.count('role_permission'),
    log: await platform.count('policy_change_log'),
    outbox: await platform.count('outbox_message'),
  });
  const outboxCount = (type: string) => platform.count('outbox_message', `event_type = $1`, [type]);
  const lastEvent = async (type: string) => {
    const [row] = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 ORDER BY id DESC LIMIT 1`, [type]);
    return row.envelope.payload;
  };
  const lastLog = async (change: string) => {
    const [row] = await platform.sql.query(`SELECT * FROM authz.policy_change_log WHERE change = $1 ORDER BY occurred_at DESC, id DESC LIMIT 1`, [change]);
    return row;
  };
  let seq = 0;
  const createRole = async (body: object = {}) => {
    const res = await admin()
      .post(`${BASE}/roles`)
      .send({ name: `role-${++seq}`, ...body })
      .expect(201);
    return res.body as { id: string; name: string; dataScope: string; description: string | null };
  };
  const grant = (roleId: string, permissionCode = GUARDED_CODE) => admin().post(`${BASE}/roles/${roleId}/permissions`).send({ permissionCode }).expect(204);
  const assign = (user: string, roleId: string) => admin().post(`${BASE}/users/${user}/roles/${roleId}`).expect(204);
  const expectDenied = (res: request.Response) => {
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('Authorization.Denied');
  };

  describe('POST /roles', () => {
    it('creates the role with a trimmed name and the default data scope, with its change-log row and event', async () => {
      const before = await outboxCount('authorization.role.created');
      const res = await admin().post(`${BASE}/roles`).send({ name: '  case clerk  ', description: 'files cases' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'case clerk',
        description: 'files cases',
        dataScope: 'tenant',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        protected: false,
        requiredPermissionCodes: [],
      });
      expect(await outboxCount('authorization.role.created')).toBe(before + 1);
      expect(await lastEvent('authorization.role.created')).toEqual({
        tenantId: SEEDED_TENANT,
        roleId: res.body.id,
        roleName: 'case clerk',
        change: 'created',
      });
      const log = await lastLog('role.created');
      expect(log).toMatchObject({ tenant_id: SEEDED_TENANT, actor: 'admin', target_type: 'role', target_id: res.body.id });
      expect(log.after).toMatchObject({ name: 'case clerk', dataScope: 'tenant' });
      const list = await admin().get(`${BASE}/roles?pageSize=100`).expect(200);
      expect(list.body.items.map((r: { name: string }) => r.name)).toContain('case clerk');
    });

    it('answers 409 Authorization.RoleNameTaken for a taken name, also when two creates race, and writes once', async () => {
      const role = await createRole();
      const before = await snapshot();
      const res = await admin().post(`${BASE}/roles`).send({ name: role.name }).expect(409);
      expect(res.body.code).toBe('Authorization.RoleNameTaken');
      expect(await snapshot()).toEqual(before);

      const raced = await Promise.all([0, 1, 2].map(() => admin().post(`${BASE}/roles`).send({ name: 'raced-name' })));
      expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      expect(raced.filter((r) => r.status === 409).every((r) => r.body.code === 'Authorization.RoleNameTaken')).toBe(true);
      expect(await platform.count('role', `tenant_id = $1 AND name = 'raced-name'`, [SEEDED_TENANT])).toBe(1);
      expect(await platform.count('policy_change_log', `change = 'role.created' AND after->>'name' = 'raced-name'`)).toBe(1);
    });

    it('lets another tenant use the same name', async () => {
      const role = await createRole();
      await platform.as('ann', 'acme').post(`${BASE}/roles`).send({ name: role.name }).expect(201);
    });

    it.each([
      ['no name', {}],
      ['an empty name', { name: '   ' }],
      ['an overlong name', { name: 'x'.repeat(101) }],
      ['a name outside the pattern', { name: 'a/b' }],
      ['a name that is not a string', { name: 42 }],
      ['an unknown field', { name: 'ok-name', tenantId: 'acme' }],
      ['an unknown data scope', { name: 'ok-name', dataScope: 'galaxy' }],
      ['an overlong description', { name: 'ok-name', description: 'd'.repeat(501) }],
    ])('answers 400 problem+json for %s and writes nothing', async (_what, body) => {
      const before = await snapshot();
      const res = await admin().post(`${BASE}/roles`).send(body).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('Validation.Failed');
      expect(await snapshot()).toEqual(before);
    });

    it('accepts a 100-character name', async () => {
      await admin()
        .post(`${BASE}/roles`)
        .send({ name: 'n'.repeat(100) })
        .expect(201);
    });
  });

  describe('the whole loop: role, permission, binding, revocation', () => {
    it('permits bob on his very next request after the assignment and denies him on the very next after the revocation', async () => {
      expectDenied(await platform.as('bob').get(GUARDED));
      const role = await createRole();
      await grant(role.id);
      expectDenied(await platform.as('bob').get(GUARDED)); // a permission of a role bob does not hold
      await assign('bob', role.id);
      await platform.as('bob').get(GUARDED).expect(200);
      await admin().delete(`${BASE}/users/bob/roles/${role.id}`).expect(204);
      expectDenied(await platform.as('bob').get(GUARDED));

      // The same through the role's permission instead of the binding.
      await assign('bob', role.id);
      await platform.as('bob').get(GUARDED).expect(200);
      const permissionId = CatalogIds.permission(GUARDED_CODE);
      await admin().delete(`${BASE}/roles/${role.id}/permissions/${permissionId}`).expect(204);
      expectDenied(await platform.as('bob').get(GUARDED));

      // And through deleting the role: bob loses what it granted at once.
      await grant(role.id);
      await platform.as('bob').get(GUARDED).expect(200);
      await admin().delete(`${BASE}/roles/${role.id}`).expect(204);
      expectDenied(await platform.as('bob').get(GUARDED));
    });
  });

  describe('PUT /roles/{roleId}', () => {
    it('renames the role: bindings and permissions follow, bob stays permitted, with change-log row and event', async () => {
      const role = await createRole({ dataScope: 'own', description: 'before' });
      await grant(role.id);
      await assign('bert', role.id);
      await platform.as('bert').get(GUARDED).expect(200);

      const res = await admin()
        .put(`${BASE}/roles/${role.id}`)
        .send({ name: `${role.name}-renamed` })
        .expect(200);
      expect(res.body).toMatchObject({ id: role.id, name: `${role.name}-renamed`, dataScope: 'own', description: 'before' });
      expect(await platform.count('user_role', `role_id = $1 AND role_name = $2 AND subject = 'bert'`, [role.id, `${role.name}-renamed`])).toBe(1);
      expect(await platform.count('role_permission', `role_id = $1 AND role_name = $2`, [role.id, `${role.name}-renamed`])).toBe(1);
      await platform.as('bert').get(GUARDED).expect(200);
      expect(await lastEvent('authorization.role.updated')).toEqual({
        tenantId: SEEDED_TENANT,
        roleId: role.id,
        roleName: `${role.name}-renamed`,
        previousName: role.name,
        change: 'updated',
      });
      const log = await lastLog('role.updated');
      expect(log.before).toMatchObject({ name: role.name });
      expect(log.after).toMatchObject({ name: `${role.name}-renamed` });

      const roles = await platform.as('bert').get(`${BASE}/me/permissions`).expect(200);
      expect(roles.body.codes).toEqual([GUARDED_CODE]);
    });

    it('changes the description and data scope; an update that changes nothing writes nothing', async () => {
      const role = await createRole();
      await admin().put(`${BASE}/roles/${role.id}`).send({ name: role.name, description: 'new', dataScope: 'office' }).expect(200);
      const before = await snapshot();
      const res = await admin().put(`${BASE}/roles/${role.id}`).send({ name: role.name }).expect(200);
      expect(res.body).toMatchObject({ description: 'new', dataScope: 'office' });
      expect(await snapshot()).toEqual(before);
      await admin().put(`${BASE}/roles/${role.id}`).send({ name: role.name, description: null }).expect(200);
      expect((await admin().get(`${BASE}/roles?pageSize=100`)).body.items.find((r: { id: string }) => r.id === role.id).description).toBeNull();
    });

    it('answers 409 RoleNameTaken when renaming to a taken name, and 400 for a malformed body, writing nothing', async () => {
      const [a, b] = [await createRole(), await createRole()];
      const before = await snapshot();
      expect((await admin().put(`${BASE}/roles/${a.id}`).send({ name: b.name }).expect(409)).body.code).toBe('Authorization.RoleNameTaken');
      expect(
        (
          await admin()
            .put(`${BASE}/roles/${a.id}`)
            .send({ name: 'y'.repeat(101) })
            .expect(400)
        ).body.code,
      ).toBe('Validation.Failed');
      expect((await admin().put(`${BASE}/roles/${a.id}`).send({ name: 'ok', id: b.id }).expect(400)).body.code).toBe('Validation.Failed');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('the seeded platform-admin role of tenant default', () => {
    const adminRoleId = CatalogIds.seededRole(SEEDED_TENANT, PLATFORM_ADMIN_ROLE);

    it('cannot be renamed or deleted (409 Authorization.RoleProtected), but its description can change', async () => {
      const before = await snapshot();
      expect((await admin().put(`${BASE}/roles/${adminRoleId}`).send({ name: 'root' }).expect(409)).body.code).toBe('Authorization.RoleProtected');
      expect((await admin().delete(`${BASE}/roles/${adminRoleId}`).expect(409)).body.code).toBe('Authorization.RoleProtected');
      expect(await snapshot()).toEqual(before);
      await admin().put(`${BASE}/roles/${adminRoleId}`).send({ name: PLATFORM_ADMIN_ROLE, description: 'operators' }).expect(200);
      await admin().get(`${BASE}/roles`).expect(200);
    });

    it('is not protected under that name in another tenant', async () => {
      const res = await platform.as('ann', 'acme').post(`${BASE}/roles`).send({ name: PLATFORM_ADMIN_ROLE }).expect(201);
      expect(res.body).toMatchObject({ protected: false, requiredPermissionCodes: [] });
      await platform.as('ann', 'acme').delete(`${BASE}/roles/${res.body.id}`).expect(204);
    });

    it('keeps the permissions that keep the tenant administrable (409 on revoke), says which, and loses any other', async () => {
      const role = (await admin().get(`${BASE}/roles/${adminRoleId}`).expect(200)).body;
      expect(role).toMatchObject({ name: PLATFORM_ADMIN_ROLE, protected: true });
      expect([...role.requiredPermissionCodes].sort()).toEqual([...ADMINISTRABLE_PERMISSIONS].sort());
      const listed = (await admin().get(`${BASE}/roles?name=${PLATFORM_ADMIN_ROLE}`).expect(200)).body.items;
      expect(listed).toEqual([role]);
      const before = await snapshot();
      for (const code of ADMINISTRABLE_PERMISSIONS) {
        const res = await admin()
          .delete(`${BASE}/roles/${adminRoleId}/permissions/${CatalogIds.permission(code)}`)
          .expect(409);
        expect(res.body).toMatchObject({ code: 'Authorization.RoleProtected' });
        expect(res.body.detail).toContain(code);
      }
      expect(await snapshot()).toEqual(before);
      // Any other permission can go (and come back).
      const other = CatalogIds.permission('authorization.feature.view');
      await admin().delete(`${BASE}/roles/${adminRoleId}/permissions/${other}`).expect(204);
      await grant(adminRoleId, 'authorization.feature.view');
    });
  });

  describe("a tenant's seeded tenant-admin role", () => {
    const acmeAdmin = () => platform.as('ann', 'acme');
    const tenantAdminRole = async () =>
      (await acmeAdmin().get(`${BASE}/roles?name=${TENANT_ADMIN_ROLE}`).expect(200)).body.items[0] as { id: string; protected: boolean };

    it('cannot be renamed, deleted or emptied of the permissions that keep the tenant administrable', async () => {
      const role = await tenantAdminRole();
      expect(role.protected).toBe(true);
      const before = await snapshot();
      expect((await acmeAdmin().put(`${BASE}/roles/${role.id}`).send({ name: 'owners' }).expect(409)).body.code).toBe('Authorization.RoleProtected');
      expect((await acmeAdmin().delete(`${BASE}/roles/${role.id}`).expect(409)).body.code).toBe('Authorization.RoleProtected');
      const res = await acmeAdmin()
        .delete(`${BASE}/roles/${role.id}/permissions/${CatalogIds.permission('authorization.role-permission.grant')}`)
        .expect(409);
      expect(res.body.code).toBe('Authorization.RoleProtected');
      expect(await snapshot()).toEqual(before);
      // ann still administers acme: she can read its roles and grant.
      await acmeAdmin().get(`${BASE}/roles/${role.id}/permissions`).expect(200);
    });

    it('is not protected under that name in the platform tenant', async () => {
      const res = await admin().post(`${BASE}/roles`).send({ name: TENANT_ADMIN_ROLE }).expect(201);
      expect(res.body).toMatchObject({ protected: false, requiredPermissionCodes: [] });
      await admin().delete(`${BASE}/roles/${res.body.id}`).expect(204);
    });
  });

  describe('DELETE /roles/{roleId}', () => {
    it('deletes the role with its bindings and permissions, logging the former holders', async () => {
      const role = await createRole();
      await grant(role.id);
      await assign('dora', role.id);
      await assign('dan', role.id);
      await admin().delete(`${BASE}/roles/${role.id}`).expect(204);
      expect(await platform.count('role', `id = $1`, [role.id])).toBe(0);
      expect(await platform.count('user_role', `role_id = $1`, [role.id])).toBe(0);
      expect(await platform.count('role_permission', `role_id = $1`, [role.id])).toBe(0);
      expect(await lastEvent('authorization.role.deleted')).toEqual({ tenantId: SEEDED_TENANT, roleId: role.id, roleName: role.name, change: 'deleted' });
      const log = await lastLog('role.deleted');
      expect(log.target_id).toBe(role.id);
      expect(log.before).toMatchObject({ name: role.name, holders: ['dan', 'dora'], permissionCodes: [GUARDED_CODE] });
      expectDenied(await platform.as('dora').get(GUARDED));
      await admin().delete(`${BASE}/roles/${role.id}`).expect(404);
    });
  });

  describe('user roles', () => {
    it('assigns idempotently: the second assign writes nothing and publishes no second event', async () => {
      const role = await createRole();
      const before = await outboxCount('authorization.user-role.assigned');
      await assign('eve', role.id);
      expect(await outboxCount('authorization.user-role.assigned')).toBe(before + 1);
      expect(await lastEvent('authorization.user-role.assigned')).toEqual({ tenantId: SEEDED_TENANT, subject: 'eve', roleId: role.id, roleName: role.name });
      const log = await lastLog('user-role.assigned');
      expect(log).toMatchObject({ actor: 'admin', target_type: 'user', target_id: 'eve' });
      const snap = await snapshot();
      await assign('eve', role.id);
      expect(await snapshot()).toEqual(snap);

      const list = await admin().get(`${BASE}/users/eve/roles`).expect(200);
      expect(list.body).toMatchObject({ totalCount: 1, items: [{ id: role.id, name: role.name }] });
    });

    it('revokes with an event naming the user, and a revoke of an unbound role is 204 writing nothing', async () => {
      const role = await createRole();
      await assign('fay', role.id);
      await admin().delete(`${BASE}/users/fay/roles/${role.id}`).expect(204);
      expect(await lastEvent('authorization.user-role.revoked')).toEqual({ tenantId: SEEDED_TENANT, subject: 'fay', roleId: role.id, roleName: role.name });
      expect((await lastLog('user-role.revoked')).target_id).toBe('fay');
      const snap = await snapshot();
      await admin().delete(`${BASE}/users/fay/roles/${role.id}`).expect(204);
      expect(await snapshot()).toEqual(snap);
      expect((await admin().get(`${BASE}/users/fay/roles`).expect(200)).body.totalCount).toBe(0);
    });

    it('accepts any identity subject key up to 255 characters; rejects longer ones and control characters with 400', async () => {
      const role = await createRole();
      const odd = encodeURIComponent('user@example.com|ü 1');
      await admin().post(`${BASE}/users/${odd}/roles/${role.id}`).expect(204);
      expect((await admin().get(`${BASE}/users/${odd}/roles`).expect(200)).body.items[0].id).toBe(role.id);
      await admin()
        .post(`${BASE}/users/${'u'.repeat(255)}/roles/${role.id}`)
        .expect(204);
      const before = await snapshot();
      for (const bad of ['u'.repeat(256), 'a%01b', 'a%0Ab']) {
        const res = await admin().post(`${BASE}/users/${bad}/roles/${role.id}`).expect(400);
        expect(res.body.code).toBe('Validation.Failed');
        await admin().get(`${BASE}/users/${bad}/roles`).expect(400);
        await admin().delete(`${BASE}/users/${bad}/roles/${role.id}`).expect(400);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("authz.role.members names the subjects of a role of the caller's tenant, for an application holding authorization.role.view", async () => {
      const role = await createRole();
      for (const subject of ['zed', 'amy', 'kim']) await assign(subject, role.id);
      const engine = (tenantId: string, scopes: string[]): TrustedCaller => ({
        kind: 'application',
        subject: 'workflow-engine',
        clientId: 'workflow-engine',
        tenantId,
        scopes,
        claimsDigest: `engine-${scopes.join(',')}`,
      });
      const rpc = platform.policy.app.get(RpcClient);
      const members = (caller: TrustedCaller, roleName: string) => rpc.call(AuthzRpc.roleMembers, { caller, payload: { roleName } });
      expect(await members(engine(SEEDED_TENANT, ['authorization.role.view']), role.name)).toEqual({
        tenantId: SEEDED_TENANT,
        roleName: role.name,
        exists: true,
        subjects: ['amy', 'kim', 'zed'],
        truncated: false,
      });
      expect(await members(engine(SEEDED_TENANT, ['authorization.role.view']), 'no-such-role')).toMatchObject({ exists: false, subjects: [] });
      // Another tenant's caller sees its own tenant only: the same name there is not this role.
      expect(await members(engine('acme', ['authorization.role.view']), role.name)).toMatchObject({ tenantId: 'acme', exists: false, subjects: [] });
      await expect(members(engine(SEEDED_TENANT, []), role.name)).rejects.toMatchObject({ problem: { status: 403, code: 'Authorization.Denied' } });
    });

    it('answers 404 for an unknown role id and a malformed one', async () => {
      const before = await snapshot();
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        expect((await admin().post(`${BASE}/users/gus/roles/${id}`).expect(404)).body.code).toBe('NotFound');
        await admin().delete(`${BASE}/users/gus/roles/${id}`).expect(404);
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('GET /roles?name= and ?search=', () => {
    it("finds a role by its exact name (trimmed) in the caller's tenant only: one item, or an empty page", async () => {
      const role = await createRole();
      const found = (
        await admin()
          .get(`${BASE}/roles`)
          .query({ name: ` ${role.name} ` })
          .expect(200)
      ).body;
      expect(found).toEqual(expect.objectContaining({ totalCount: 1, items: [expect.objectContaining({ id: role.id, name: role.name })] }));
      expect(
        (
          await admin()
            .get(`${BASE}/roles`)
            .query({ name: `${role.name}-not` })
            .expect(200)
        ).body,
      ).toEqual(expect.objectContaining({ totalCount: 0, items: [] }));
      // Another tenant's role of the same name is not this tenant's.
      expect((await platform.as('ann', 'acme').get(`${BASE}/roles`).query({ name: role.name }).expect(200)).body.items).toEqual([]);
      expect((await admin().get(`${BASE}/roles`).query({ name: ' ' }).expect(400)).body.code).toBe('Validation.Failed');
    });

    it("?search= keeps the caller's roles whose name contains the text, case-insensitively, paged by name", async () => {
      const tag = `Srch${++seq}`;
      const names = [`${tag}-b`, `x-${tag.toLowerCase()}-a`, `${tag}_c`, `${tag}.d`];
      for (const name of names) await createRole({ name });
      const search = async (text: string, query: object = {}) =>
        (
          await admin()
            .get(`${BASE}/roles`)
            .query({ search: text, ...query })
            .expect(200)
        ).body as { items: Array<{ name: string }>; totalCount: number };
      const all = await search(` ${tag.toUpperCase()} `);
      expect(all.totalCount).toBe(4);
      expect(all.items.map((r) => r.name).sort()).toEqual([...names].sort());
      const pages = [await search(tag, { pageSize: 3 }), await search(tag, { pageSize: 3, pageIndex: 1 })];
      expect(pages.flatMap((p) => p.items.map((r) => r.name))).toEqual(all.items.map((r) => r.name));
      // `_` is text, not a pattern (no role name may hold `%`); `name` and `search` together must both hold.
      expect((await search(`${tag}_`)).items.map((r) => r.name)).toEqual([`${tag}_c`]);
      expect((await search('%')).totalCount).toBe(0);
      expect((await search(tag, { name: `${tag}-b` })).items.map((r) => r.name)).toEqual([`${tag}-b`]);
      expect((await search(tag, { name: 'role-1' })).totalCount).toBe(0);
      // Another tenant sees none of them.
      expect((await platform.as('ann', 'acme').get(`${BASE}/roles`).query({ search: tag }).expect(200)).body.totalCount).toBe(0);
      for (const bad of [' ', 's'.repeat(101)]) {
        const res = await admin().get(`${BASE}/roles`).query({ search: bad }).expect(400);
        expect([res.body.code, Object.keys(res.body.errors)]).toEqual(['Validation.Failed', ['search']]);
      }
    });
  });

  describe('GET /roles/{roleId}', () => {
    it("answers one role of the caller's tenant in the list's shape", async () => {
      const role = await createRole({ description: 'one of many', dataScope: 'office' });
      const res = await admin().get(`${BASE}/roles/${role.id}`).expect(200);
      const listed = (await admin().get(`${BASE}/roles?pageSize=100`).expect(200)).body.items.find((r: { id: string }) => r.id === role.id);
      expect(res.body).toEqual(listed);
      expect(res.body).toEqual({
        id: role.id,
        name: role.name,
        description: 'one of many',
        dataScope: 'office',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        protected: false,
        requiredPermissionCodes: [],
      });
      // An upper-case id names the same role, as on the other routes.
      expect((await admin().get(`${BASE}/roles/${role.id.toUpperCase()}`).expect(200)).body.id).toBe(role.id);
    });

    it('answers 404 NotFound for an unknown, a malformed and a deleted role id', async () => {
      const role = await createRole();
      await admin().delete(`${BASE}/roles/${role.id}`).expect(204);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', role.id]) {
        const res = await admin().get(`${BASE}/roles/${id}`).expect(404);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body.code).toBe('NotFound');
      }
    });
  });

  describe('GET /roles/{roleId}/members', () => {
    type Member = { subject: string; assignedAt: string; assignedBy: string };
    const members = async (roleId: string, query = '') => (await admin().get(`${BASE}/roles/${roleId}/members${query}`).expect(200)).body;
    const subjectsOf = (page: { items: Member[] }) => page.items.map((m) => m.subject);

    it('pages the subjects holding the role, ordered by subject, with when and by whom each was assigned', async () => {
      const role = await createRole();
      expect(await members(role.id)).toEqual({ items: [], pageIndex: 0, pageSize: 20, totalCount: 0 });
      for (const subject of ['mia', 'ada', 'zoe', 'bea', 'c_y']) await assign(subject, role.id);
      const first = await members(role.id, '?pageSize=2');
      expect(first).toEqual({
        items: [
          { subject: 'ada', assignedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), assignedBy: 'admin' },
          { subject: 'bea', assignedAt: expect.any(String), assignedBy: 'admin' },
        ],
        pageIndex: 0,
        pageSize: 2,
        totalCount: 5,
      });
      expect(subjectsOf(await members(role.id, '?pageIndex=1&pageSize=2'))).toEqual(['c_y', 'mia']);
      expect(subjectsOf(await members(role.id, '?pageIndex=2&pageSize=2'))).toEqual(['zoe']);
      expect(await members(role.id, '?pageIndex=3&pageSize=2')).toMatchObject({ items: [], totalCount: 5 });
      expect(subjectsOf(await members(role.id, '?pageSize=100'))).toEqual(['ada', 'bea', 'c_y', 'mia', 'zoe']);
      // The binding's own time, not the role's.
      const [row] = await platform.sql.query(`SELECT created_at FROM authz.user_role WHERE role_id = $1 AND subject = 'ada'`, [role.id]);
      expect(first.items[0].assignedAt).toBe(new Date(row.created_at).toISOString());
    });

    it('finds subjects containing a text, case-insensitively, with % and _ taken literally', async () => {
      const role = await createRole();
      for (const subject of ['mia', 'ada', 'zoe', 'bea', 'c_y']) await assign(subject, role.id);
      expect(await members(role.id, '?search=A')).toMatchObject({ totalCount: 3, items: [{ subject: 'ada' }, { subject: 'bea' }, { subject: 'mia' }] });
      expect(subjectsOf(await members(role.id, '?search=A&pageIndex=1&pageSize=2'))).toEqual(['mia']);
      expect(subjectsOf(await members(role.id, `?search=${encodeURIComponent(' _ ')}`))).toEqual(['c_y']);
      expect(await members(role.id, '?search=%25')).toMatchObject({ items: [], totalCount: 0 });
      expect(await members(role.id, '?search=nobody')).toMatchObject({ items: [], totalCount: 0 });
    });

    it('drops a revoked binding at once and follows a rename', async () => {
      const role = await createRole();
      for (const subject of ['pat', 'quinn', 'ros']) await assign(subject, role.id);
      await admin().delete(`${BASE}/users/quinn/roles/${role.id}`).expect(204);
      expect(await members(role.id)).toMatchObject({ totalCount: 2, items: [{ subject: 'pat' }, { subject: 'ros' }] });
      await admin()
        .put(`${BASE}/roles/${role.id}`)
        .send({ name: `${role.name}-renamed` })
        .expect(200);
      expect(subjectsOf(await members(role.id))).toEqual(['pat', 'ros']);
    });

    it.each([
      ['a page size over 100', '?pageSize=101'],
      ['a page size of 0', '?pageSize=0'],
      ['a negative page index', '?pageIndex=-1'],
      ['a page index that is not a number', '?pageIndex=x'],
      ['an empty search', '?search=%20%20'],
      ['an overlong search', `?search=${'s'.repeat(256)}`],
      ['an unknown parameter', '?subjectKind=user'],
    ])('answers 400 Validation.Failed for %s', async (_what, query) => {
      const role = await createRole();
      const res = await admin().get(`${BASE}/roles/${role.id}/members${query}`).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('Validation.Failed');
    });

    it('answers 404 NotFound for an unknown, a malformed and a deleted role id', async () => {
      const role = await createRole();
      await assign('gil', role.id);
      await admin().delete(`${BASE}/roles/${role.id}`).expect(204);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', role.id]) {
        expect((await admin().get(`${BASE}/roles/${id}/members`).expect(404)).body.code).toBe('NotFound');
      }
    });
  });

  describe('role permissions', () => {
    it('grants by code or by id idempotently, lists them with ids and codes, revokes with events and change-log rows', async () => {
      const role = await createRole();
      const before = await outboxCount('authorization.role-permission.changed');
      await grant(role.id, 'authorization.role.view');
      const featureId = CatalogIds.permission('authorization.feature.view');
      await admin().post(`${BASE}/roles/${role.id}/permissions`).send({ permissionId: featureId }).expect(204);
      expect(await outboxCount('authorization.role-permission.changed')).toBe(before + 2);
      expect(await lastEvent('authorization.role-permission.changed')).toEqual({
        tenantId: SEEDED_TENANT,
        roleId: role.id,
        roleName: role.name,
        permissionId: featureId,
        permissionCode: 'authorization.feature.view',
        change: 'granted',
      });
      expect((await lastLog('role-permission.granted')).after).toEqual({ permissionId: featureId, permissionCode: 'authorization.feature.view' });

      const snap = await snapshot();
      await grant(role.id, 'authorization.role.view');
      await admin().post(`${BASE}/roles/${role.id}/permissions`).send({ permissionId: featureId }).expect(204);
      expect(await snapshot()).toEqual(snap);

      const list = await admin().get(`${BASE}/roles/${role.id}/permissions`).expect(200);
      expect(list.body).toMatchObject({ totalCount: 2, pageIndex: 0 });
      expect(list.body.items).toEqual([
        {
          permissionId: featureId,
          permissionCode: 'authorization.feature.view',
          module: 'authorization',
          resource: 'feature',
          action: 'View',
          grantedAt: expect.any(String),
        },
        {
          permissionId: CatalogIds.permission('authorization.role.view'),
          permissionCode: 'authorization.role.view',
          module: 'authorization',
          resource: 'role',
          action: 'View',
          grantedAt: expect.any(String),
        },
      ]);

      await admin().delete(`${BASE}/roles/${role.id}/permissions/${featureId}`).expect(204);
      expect((await lastEvent('authorization.role-permission.changed')).change).toBe('revoked');
      expect((await lastLog('role-permission.revoked')).before).toEqual({ permissionId: featureId, permissionCode: 'authorization.feature.view' });
      const after = await snapshot();
      await admin().delete(`${BASE}/roles/${role.id}/permissions/${featureId}`).expect(204); // not granted: nothing
      expect(await snapshot()).toEqual(after);
    });

    it('answers 422 Authorization.PermissionUnknown for a code or id outside the catalog, writing nothing', async () => {
      const role = await createRole();
      const before = await snapshot();
      for (const body of [{ permissionCode: 'authorization.nothing.view' }, { permissionId: '00000000-0000-4000-8000-000000000000' }]) {
        const res = await admin().post(`${BASE}/roles/${role.id}/permissions`).send(body).expect(422);
        expect(res.body.code).toBe('Authorization.PermissionUnknown');
      }
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['neither field', {}],
      ['both fields', { permissionCode: GUARDED_CODE, permissionId: CatalogIds.permission(GUARDED_CODE) }],
      ['an id that is not a UUID', { permissionId: 'x' }],
      ['an overlong code', { permissionCode: 'a'.repeat(201) }],
      ['an unknown field', { permissionCode: GUARDED_CODE, roleName: 'x' }],
    ])('answers 400 for %s, writing nothing', async (_what, body) => {
      const role = await createRole();
      const before = await snapshot();
      const res = await admin().post(`${BASE}/roles/${role.id}/permissions`).send(body).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
      expect(await snapshot()).toEqual(before);
    });

    it('answers 404 for an unknown or malformed role id or permission id', async () => {
      const role = await createRole();
      const unknown = '00000000-0000-4000-8000-000000000000';
      await admin().get(`${BASE}/roles/${unknown}/permissions`).expect(404);
      await admin().get(`${BASE}/roles/nope/permissions`).expect(404);
      await admin().post(`${BASE}/roles/${unknown}/permissions`).send({ permissionCode: GUARDED_CODE }).expect(404);
      await admin().delete(`${BASE}/roles/${role.id}/permissions/${unknown}`).expect(404);
      await admin().delete(`${BASE}/roles/${role.id}/permissions/nope`).expect(404);
      await admin().put(`${BASE}/roles/nope`).send({ name: 'x' }).expect(404);
      await admin().delete(`${BASE}/roles/nope`).expect(404);
    });
  });

  describe('GET /permissions/tree', () => {
    it('returns module → resource → action with ids and codes for the whole catalog', async () => {
      const res = await admin().get(GUARDED).expect(200);
      const authorization = res.body.modules.find((m: { module: string }) => m.module === 'authorization');
      const role = authorization.resources.find((r: { resource: string }) => r.resource === 'role');
      expect(role.actions.map((a: { action: string }) => a.action)).toEqual(['Create', 'Delete', 'Update', 'View']);
      expect(role.actions[3]).toEqual({
        action: 'View',
        permissionId: CatalogIds.permission('authorization.role.view'),
        code: 'authorization.role.view',
        description: 'List roles',
      });
      const codes = res.body.modules.flatMap((m: { resources: Array<{ actions: Array<{ code: string }> }> }) =>
        m.resources.flatMap((r) => r.actions.map((a) => a.code)),
      );
      expect(codes.length).toBe(await platform.count('permission'));
    });
  });

  describe('GET /me/permissions and /me/menu', () => {
    it('answers for the caller alone: role permissions plus active temporary grants, the menu filtered to them', async () => {
      const role = await createRole();
      await grant(role.id, 'authorization.role.view');
      await assign('hana', role.id);
      await platform.sql.query(
        `INSERT INTO authz.temporary_grant (tenant_id, subject, permission_codes, reason, expires_at, source, created_by) VALUES
           ($1, 'hana', '{authorization.feature.view}', 'test', now() + interval '1 hour', 'test', 'test'),
           ($1, 'hana', '{authorization.abac-rule.view}', 'expired', now() - interval '1 minute', 'test', 'test')`,
        [SEEDED_TENANT],
      );
      await platform.invalidate(EventTypes.authorization.temporaryGrantChanged, SEEDED_TENANT, { tenantId: SEEDED_TENANT, subject: 'hana' });
      const mine = await platform.as('hana').get(`${BASE}/me/permissions`).expect(200);
      expect(mine.body).toEqual({
        tenantId: SEEDED_TENANT,
        subject: 'hana',
        codes: ['authorization.feature.view', 'authorization.role.view'],
        permissions: [
          { code: 'authorization.feature.view', sources: [{ kind: 'temporaryGrant', grantId: expect.any(String), expiresAt: expect.any(String) }] },
          { code: 'authorization.role.view', sources: [{ kind: 'role', role: role.name }] },
        ],
        disabledFeatures: [],
      });
      const menu = await platform.as('hana').get(`${BASE}/me/menu`).expect(200);
      expect(menu.body).toEqual({
        modules: [
          {
            module: 'authorization',
            resources: [
              { resource: 'feature', actions: [expect.objectContaining({ action: 'View', code: 'authorization.feature.view' })] },
              { resource: 'role', actions: [expect.objectContaining({ action: 'View', code: 'authorization.role.view' })] },
            ],
          },
        ],
      });
      // Nobody's: no roles in tenant acme.
      expect((await platform.as('hana', 'acme').get(`${BASE}/me/permissions`).expect(200)).body.codes).toEqual([]);
      expect((await platform.as('nobody').get(`${BASE}/me/menu`).expect(200)).body).toEqual({ modules: [] });
    });

    it('refreshes the menu on the changing instance at once, for assignment, revocation and role-permission changes', async () => {
      const role = await createRole();
      expect((await platform.as('ivy').get(`${BASE}/me/menu`).expect(200)).body).toEqual({ modules: [] });
      await grant(role.id, 'authorization.role.view');
      await assign('ivy', role.id);
      expect((await platform.as('ivy').get(`${BASE}/me/permissions`).expect(200)).body.codes).toEqual(['authorization.role.view']);
      await grant(role.id, 'authorization.feature.view');
      expect((await platform.as('ivy').get(`${BASE}/me/permissions`).expect(200)).body.codes).toEqual([
        'authorization.feature.view',
        'authorization.role.view',
      ]);
      await admin().delete(`${BASE}/users/ivy/roles/${role.id}`).expect(204);
      expect((await platform.as('ivy').get(`${BASE}/me/menu`).expect(200)).body).toEqual({ modules: [] });
    });

    it('lists delegations received with their delegator and expiry, only for codes the delegator still holds, and drops them on revocation', async () => {
      const role = await createRole();
      await grant(role.id, 'authorization.role.view');
      await assign('lena', role.id);
      const delegator = await createRole();
      await grant(delegator.id, 'authorization.role.view');
      await grant(delegator.id, 'authorization.delegated-admin.manage');
      await grant(delegator.id, 'authorization.delegated-admin.revoke');
      await assign('mo', delegator.id);
      // lena delegates to kim: role.view (held) and feature.view (not held by lena: never usable).
      await platform.sql.query(
        `INSERT INTO authz.delegated_grant (tenant_id, delegator, actor, permission_codes, expires_at)
         VALUES ($1, 'lena', 'kim', '{authorization.role.view,authorization.feature.view}', now() + interval '2 hours')`,
        [SEEDED_TENANT],
      );
      await platform.invalidate(EventTypes.authorization.delegationChanged, SEEDED_TENANT, { tenantId: SEEDED_TENANT, subjects: ['lena', 'kim'] });
      const kim = async () => (await platform.as('kim').get(`${BASE}/me/permissions`).expect(200)).body;
      const before = await kim();
      expect(before.codes).toEqual([]); // nothing of kim's own
      expect(before.permissions).toEqual([
        { code: 'authorization.role.view', sources: [{ kind: 'delegation', from: 'lena', grantId: expect.any(String), expiresAt: expect.any(String) }] },
      ]);
      // lena loses the role: the delegation no longer carries it, at once on this instance.
      await admin().delete(`${BASE}/users/lena/roles/${role.id}`).expect(204);
      expect((await kim()).permissions).toEqual([]);
      // mo (holding the role) delegates through the API; revoking it removes it from kim's view.
      const created = await platform
        .as('mo')
        .post(`${BASE}/delegated-admin`)
        .send({ actor: 'kim', permissionCodes: ['authorization.role.view'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      expect(created.status).toBe(201);
      expect((await kim()).permissions).toEqual([
        { code: 'authorization.role.view', sources: [{ kind: 'delegation', from: 'mo', grantId: created.body.id, expiresAt: created.body.expiresAt }] },
      ]);
      await platform.as('mo').delete(`${BASE}/delegated-admin/${created.body.id}`).expect(204);
      expect((await kim()).permissions).toEqual([]);
    });

    it("shows the tenant's disabled features with the modules they switch off, refreshed when a feature changes", async () => {
      const me = async () => (await platform.as('olga').get(`${BASE}/me/permissions`).expect(200)).body;
      expect((await me()).disabledFeatures).toEqual([]);
      await admin().put(`${BASE}/features/chat`).send({ enabled: false, scope: 'tenant' }).expect(200);
      try {
        expect((await me()).disabledFeatures).toEqual([{ feature: 'chat', modules: ['chat'] }]);
      } finally {
        await admin().delete(`${BASE}/features/chat/override`).expect(204);
      }
      expect((await me()).disabledFeatures).toEqual([]);
    });

    it('reads each source once, whatever the number of roles and grants (no N+1)', async () => {
      const roles = [await createRole(), await createRole(), await createRole()];
      for (const [i, r] of roles.entries()) {
        await grant(r.id, ['authorization.role.view', 'authorization.feature.view', 'authorization.abac-rule.view'][i]);
        await assign('pia', r.id);
      }
      await platform.sql.query(
        `INSERT INTO authz.temporary_grant (tenant_id, subject, permission_codes, reason, expires_at, source, created_by)
         SELECT $1, 'pia', '{authorization.permission.view}', 'test', now() + interval '1 hour', 'test', 'test' FROM generate_series(1, 3)`,
        [SEEDED_TENANT],
      );
      await platform.invalidate(EventTypes.authorization.temporaryGrantChanged, SEEDED_TENANT, { tenantId: SEEDED_TENANT, subject: 'pia' });
      const queries = jest.spyOn(platform.sql, 'query');
      try {
        const body = (await platform.as('pia').get(`${BASE}/me/permissions`).expect(200)).body;
        expect(body.codes).toEqual(['authorization.abac-rule.view', 'authorization.feature.view', 'authorization.permission.view', 'authorization.role.view']);
        expect(body.permissions.find((p: { code: string }) => p.code === 'authorization.permission.view').sources).toHaveLength(3);
        // The catalog, then roles, temporary grants, delegations received and features: five reads.
        expect(queries).toHaveBeenCalledTimes(5);
      } finally {
        queries.mockRestore();
      }
    });

    it('refreshes the menu on every instance through the events: assign on A, read on B', async () => {
      const second = await createServiceApp(policyManagementService, platform.runtime);
      try {
        const onB = (path: string) =>
          request(second.http)
            .get(path)
            .set('Authorization', `Bearer ${platform.token({ sub: 'jon' })}`);
        expect((await onB(`${BASE}/me/menu`).expect(200)).body).toEqual({ modules: [] }); // now cached on B
        const role = await createRole();
        await grant(role.id, 'authorization.role.view');
        // Let B see the role events first, so the assignment alone is what must refresh jon's menu.
        expect((await onB(`${BASE}/me/menu`).expect(200)).body).toEqual({ modules: [] });
        await assign('jon', role.id);
        const deadline = Date.now() + 15_000;
        let codes: string[] = [];
        while (Date.now() < deadline) {
          codes = (await onB(`${BASE}/me/permissions`).expect(200)).body.codes;
          if (codes.length > 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(codes).toEqual(['authorization.role.view']);
        expect(JSON.stringify((await onB(`${BASE}/me/menu`).expect(200)).body)).toContain('authorization.role.view');

        await admin().delete(`${BASE}/users/jon/roles/${role.id}`).expect(204);
        const until = Date.now() + 15_000;
        let menu: unknown;
        while (Date.now() < until) {
          menu = (await onB(`${BASE}/me/menu`).expect(200)).body;
          if (JSON.stringify(menu) === '{"modules":[]}') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(menu).toEqual({ modules: [] });
      } finally {
        await second.app.close();
      }
    }, 45_000);
  });

  describe('denial: a caller without the permission gets 403 Authorization.Denied and nothing changes', () => {
    let roleId: string;
    beforeAll(async () => {
      roleId = (await createRole()).id;
      await assign('kim', roleId);
    });
    const permissionId = CatalogIds.permission(GUARDED_CODE);
    const routes: Array<[string, (c: ReturnType<PolicyTestPlatform['as']>) => request.Test]> = [
      ['GET /roles', (c) => c.get(`${BASE}/roles`)],
      ['GET /roles?search=', (c) => c.get(`${BASE}/roles?search=role`)],
      ['GET /roles/{id}', (c) => c.get(`${BASE}/roles/${roleId}`)],
      ['GET /roles/{id}/members', (c) => c.get(`${BASE}/roles/${roleId}/members`)],
      ['POST /roles', (c) => c.post(`${BASE}/roles`).send({ name: 'denied-role' })],
      ['PUT /roles/{id}', (c) => c.put(`${BASE}/roles/${roleId}`).send({ name: 'denied-rename' })],
      ['DELETE /roles/{id}', (c) => c.delete(`${BASE}/roles/${roleId}`)],
      ['GET /users/{u}/roles', (c) => c.get(`${BASE}/users/kim/roles`)],
      ['POST /users/{u}/roles/{id}', (c) => c.post(`${BASE}/users/mallory/roles/${roleId}`)],
      ['DELETE /users/{u}/roles/{id}', (c) => c.delete(`${BASE}/users/kim/roles/${roleId}`)],
      ['GET /roles/{id}/permissions', (c) => c.get(`${BASE}/roles/${roleId}/permissions`)],
      ['POST /roles/{id}/permissions', (c) => c.post(`${BASE}/roles/${roleId}/permissions`).send({ permissionCode: GUARDED_CODE })],
      ['DELETE /roles/{id}/permissions/{p}', (c) => c.delete(`${BASE}/roles/${roleId}/permissions/${permissionId}`)],
      ['GET /permissions/tree', (c) => c.get(GUARDED)],
    ];

    it.each(routes)('%s', async (_route, call) => {
      const before = await snapshot();
      // kim holds a role, but not this permission; an unknown user holds nothing at all.
      expectDenied(await call(platform.as('kim')));
      expectDenied(await call(platform.as('mallory')));
      expect(await snapshot()).toEqual(before);
    });

    it('the self-service routes need no permission', async () => {
      await platform.as('mallory').get(`${BASE}/me/permissions`).expect(200);
      await platform.as('mallory').get(`${BASE}/me/menu`).expect(200);
    });

    it('each route is permitted by exactly its own permission', async () => {
      // role-permission.grant alone does not let kim assign roles.
      const grantOnly = await createRole();
      await grant(grantOnly.id, 'authorization.role-permission.grant');
      await assign('lee', grantOnly.id);
      expectDenied(await platform.as('lee').post(`${BASE}/users/someone/roles/${grantOnly.id}`));
      await platform.as('lee').post(`${BASE}/roles/${grantOnly.id}/permissions`).send({ permissionCode: 'authorization.role.view' }).expect(204);
    });

    it("a role's members need user-role.view, the role itself role.view: neither implies the other", async () => {
      const [roleViewer, bindingViewer] = [await createRole(), await createRole()];
      await grant(roleViewer.id, 'authorization.role.view');
      await grant(bindingViewer.id, 'authorization.user-role.view');
      await assign('rolf', roleViewer.id);
      await assign('uma', bindingViewer.id);
      await platform.as('rolf').get(`${BASE}/roles/${bindingViewer.id}`).expect(200);
      expectDenied(await platform.as('rolf').get(`${BASE}/roles/${bindingViewer.id}/members`));
      expect((await platform.as('uma').get(`${BASE}/roles/${bindingViewer.id}/members`).expect(200)).body.items).toEqual([
        { subject: 'uma', assignedAt: expect.any(String), assignedBy: 'admin' },
      ]);
      expectDenied(await platform.as('uma').get(`${BASE}/roles/${bindingViewer.id}`));
    });
  });

  describe('tenant isolation: another tenant’s ids behave like unknown ones', () => {
    it('every id route answers 404 to acme for a role of tenant default, and nothing changes', async () => {
      const role = await createRole();
      await grant(role.id);
      await assign('bob2', role.id);
      const ann = platform.as('ann', 'acme');
      const permissionId = CatalogIds.permission(GUARDED_CODE);
      const before = await snapshot();
      const answers = await Promise.all([
        ann.put(`${BASE}/roles/${role.id}`).send({ name: 'stolen' }),
        ann.delete(`${BASE}/roles/${role.id}`),
        ann.post(`${BASE}/users/bob2/roles/${role.id}`),
        ann.delete(`${BASE}/users/bob2/roles/${role.id}`),
        ann.get(`${BASE}/roles/${role.id}/permissions`),
        ann.post(`${BASE}/roles/${role.id}/permissions`).send({ permissionCode: GUARDED_CODE }),
        ann.delete(`${BASE}/roles/${role.id}/permissions/${permissionId}`),
        ann.get(`${BASE}/roles/${role.id}`),
        ann.get(`${BASE}/roles/${role.id}/members`),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NotFound');
      }
      expect(await snapshot()).toEqual(before);
      const list = await ann.get(`${BASE}/roles?pageSize=100`).expect(200);
      expect(list.body.items.map((r: { id: string }) => r.id)).not.toContain(role.id);
      expect((await ann.get(`${BASE}/users/bob2/roles`).expect(200)).body.totalCount).toBe(0);
      // bob2 of acme is someone else: default's binding does not reach him.
      expectDenied(await platform.as('bob2', 'acme').get(GUARDED));
      await platform.as('bob2').get(GUARDED).expect(200);
    });

    it("lists only the tenant's own bindings: the same subject bound in two tenants appears once in each", async () => {
      const ann = platform.as('ann', 'acme');
      const ours = await createRole();
      const theirs = (await ann.post(`${BASE}/roles`).send({ name: ours.name }).expect(201)).body as { id: string };
      await assign('sam', ours.id);
      await assign('tia', ours.id);
      await ann.post(`${BASE}/users/sam/roles/${theirs.id}`).expect(204);
      await ann.post(`${BASE}/users/ulf/roles/${theirs.id}`).expect(204);
      const subjects = (page: { items: Array<{ subject: string; assignedBy: string }> }) => page.items.map((m) => `${m.subject} by ${m.assignedBy}`);
      expect(subjects((await admin().get(`${BASE}/roles/${ours.id}/members`).expect(200)).body)).toEqual(['sam by admin', 'tia by admin']);
      expect(subjects((await ann.get(`${BASE}/roles/${theirs.id}/members`).expect(200)).body)).toEqual(['sam by ann', 'ulf by ann']);
      expect((await admin().get(`${BASE}/roles/${theirs.id}/members`).expect(404)).body.code).toBe('NotFound');
      expect((await admin().get(`${BASE}/roles/${theirs.id}`).expect(404)).body.code).toBe('NotFound');
    });
  });
});

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management roles with two decision-service instances', () => {
  const platform = new PolicyTestPlatform('roles-2d', { decisionInstances: 2 });
  beforeAll(() => platform.start(), 90_000);
  afterAll(() => platform.stop());

  it('assignment and revocation take effect on the very next request, whichever instance decides', async () => {
    const admin = platform.as();
    const role = (await admin.post(`${BASE}/roles`).send({ name: 'viewer' }).expect(201)).body;
    await admin.post(`${BASE}/roles/${role.id}/permissions`).send({ permissionCode: GUARDED_CODE }).expect(204);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 3; i++) expect((await platform.as('bob').get(GUARDED)).status).toBe(403);
      await admin.post(`${BASE}/users/bob/roles/${role.id}`).expect(204);
      for (let i = 0; i < 3; i++) expect((await platform.as('bob').get(GUARDED)).status).toBe(200);
      await admin.delete(`${BASE}/users/bob/roles/${role.id}`).expect(204);
    }
    expect((await platform.as('bob').get(GUARDED)).status).toBe(403);
  }, 60_000);
});

import request from 'supertest';
import { AuthorizationAction, AuthzRpc, EventTypes, TrustedCaller } from '@lp/contracts';
import { RpcClient, RpcTimeoutError } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem } from '../support/policy-platform';

const TENANTS = '/api/operations/tenants';
const admin: TrustedCaller = { kind: 'user', subject: 'admin', tenantId: 'default', scopes: [], claimsDigest: 'default:admin' };

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'operations: the tenant store and the tenant lifecycle', () => {
  // Two replicas: both seed the platform tenant at start.
  const platform = new OperationsTestPlatform('tenants', { operationsInstances: 2 });
  const opsRpc = () => platform.operations[0]?.app.get(RpcClient) as RpcClient;

  /** The decision authz-decision gives `sub` of `tenantId` for a tenant-level permission, over its HTTP surface. */
  const decide = async (sub: string, tenantId: string) => {
    const decision = platform.decisionInstances[0];
    if (!decision) throw new Error('no decision instance');
    const res = await request(decision.http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${platform.token({ sub, tenantId })}`)
      .send({ resource: { module: 'authorization', resourceType: 'role' }, action: AuthorizationAction.View })
      .expect(200);
    return res.body as { outcome: string; refusal?: string };
  };

  /** Makes the next call of `pattern` from operations fail as a timeout would (the handler never answered). */
  const failNextCall = (pattern: string) => {
    const rpc = opsRpc();
    const original = rpc.call.bind(rpc);
    const spy = jest.spyOn(rpc, 'call').mockImplementation(((contract: { pattern: string }, message: never, options?: never) => {
      if (contract.pattern !== pattern) return original(contract as never, message, options);
      spy.mockRestore();
      return Promise.reject(new RpcTimeoutError(pattern, 1));
    }) as typeof rpc.call);
    return spy;
  };

  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  describe('the seeded platform tenant', () => {
    it('exists once, active, with the seeded administrator, even after a second seed (a replica starting)', async () => {
      const res = await platform.ops().get(`${TENANTS}/default`).expect(200);
      expect(res.body).toMatchObject({ id: 'default', status: 'active', adminSubject: 'admin', administratorReady: true, createdBy: 'operations:seed' });
      // Two operations replicas started against the same database: one row.
      await platform.ops(undefined, undefined, {}, 1).get(`${TENANTS}/default`).expect(200);
      const second = await platform.opsSql.query(`SELECT count(*)::int AS n FROM platform.tenant WHERE id = 'default'`);
      expect(second[0].n).toBe(1);
    });

    it('cannot be suspended (409 Operations.PlatformTenantProtected) nor created', async () => {
      expectProblem(await platform.ops().patch(`${TENANTS}/default`).send({ status: 'suspended' }), 409, 'Operations.PlatformTenantProtected');
      expectProblem(
        await platform.ops().post(TENANTS).send({ id: 'default', name: 'Platform', adminSubject: 'admin' }),
        409,
        'Operations.PlatformTenantProtected',
      );
      // Reactivating it is a no-op answer; the operators keep their access.
      expect((await platform.ops().patch(`${TENANTS}/default`).send({ status: 'active' }).expect(200)).body.status).toBe('active');
      await platform.ops().get(TENANTS).expect(200);
    });
  });

  describe('GET /tenants paging (specs/operations.md §8)', () => {
    const ids = Array.from({ length: 25 }, (_, i) => `page-${String(i + 1).padStart(2, '0')}`);
    // Every tenant is listed in id order: default, then page-01 … page-25 (26 rows; created here, before any other test adds one).
    const all = ['default', ...ids];

    beforeAll(async () => {
      await platform.opsSql.query(
        `INSERT INTO platform.tenant (id, name, admin_subject, created_by) SELECT id, 'Tenant ' || id, 'owner', 'test' FROM unnest($1::text[]) AS id`,
        [ids],
      );
    });
    afterAll(() => platform.opsSql.query(`DELETE FROM platform.tenant WHERE id LIKE 'page-%'`));

    const page = async (query: string) => ((await platform.ops().get(`${TENANTS}${query}`).expect(200)).body as Array<{ id: string }>).map((t) => t.id);

    it('defaults to index 0, size 20, in id order, as summaries without a total', async () => {
      const res = await platform.ops().get(TENANTS).expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((t: { id: string }) => t.id)).toEqual(all.slice(0, 20));
      expect(Object.keys(res.body[0]).sort()).toEqual(['createdAt', 'id', 'name', 'status']);
      expect(res.body[0]).toMatchObject({ id: 'default', status: 'active' });
    });

    it.each([
      ['?pageIndex=-1', 'a negative index becomes 0', all.slice(0, 20)],
      ['?pageIndex=-1&pageSize=5', 'a negative index becomes 0', all.slice(0, 5)],
      ['?pageSize=0', 'size 0 becomes 20', all.slice(0, 20)],
      ['?pageSize=-3', 'a negative size becomes 20', all.slice(0, 20)],
      ['?pageSize=101', 'size 101 becomes 20, not 100', all.slice(0, 20)],
      ['?pageSize=100', 'size 100 is kept', all],
      ['?pageIndex=1&pageSize=20', 'the second page', all.slice(20)],
      ['?pageIndex=2&pageSize=10', 'index × size rows skipped', all.slice(20, 30)],
      ['?pageIndex=99', 'past the end: an empty page', []],
      ['?pageIndex=abc&pageSize=xyz', 'non-numeric values: the defaults, not a 400', all.slice(0, 20)],
      ['?pageIndex=1.5&pageSize=2.5', 'fractions: the defaults', all.slice(0, 20)],
    ])('%s: %s', async (query, _why, expected) => {
      expect(await page(query)).toEqual(expected);
    });
  });

  describe('POST /tenants', () => {
    it('creates the tenant and its first administrator, who can administer the tenant on the very next request', async () => {
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(403);
      const res = await platform.ops().post(TENANTS).send({ id: 'globex', name: '  Globex Corporation ', adminSubject: 'gwen' }).expect(201);
      expect(res.body).toMatchObject({
        id: 'globex',
        name: 'Globex Corporation',
        status: 'active',
        adminSubject: 'gwen',
        administratorReady: true,
        createdBy: 'admin',
      });
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);
      // Still a tenant administrator only: platform-level permissions stay out of reach.
      await platform.as('gwen', 'globex').put('/api/authorization/features/chat').send({ enabled: false, scope: 'global' }).expect(403);
      expect((await platform.ops().get(TENANTS).expect(200)).body.map((t: { id: string }) => t.id)).toEqual(['default', 'globex']);
    });

    it('answers a repeat of the same request with 200 and the same tenant, writing nothing new', async () => {
      const before = await platform.count('policy_change_log', `tenant_id = 'globex'`);
      const first = (await platform.ops().get(`${TENANTS}/globex`).expect(200)).body;
      const again = await platform.ops().post(TENANTS).send({ id: 'globex', name: 'Globex Corporation', adminSubject: 'gwen' }).expect(200);
      expect(again.body).toEqual(first);
      expect(await platform.count('policy_change_log', `tenant_id = 'globex'`)).toBe(before);
      expect(await platform.count('user_role', `tenant_id = 'globex'`)).toBe(1);
    });

    it.each([
      [{ id: 'globex', name: 'Globex Inc', adminSubject: 'gwen' }, 'another name'],
      [{ id: 'globex', name: 'Globex Corporation', adminSubject: 'mallory' }, 'another administrator'],
    ])('refuses %j (%s) with 409 Operations.TenantConflict, binding nobody', async (body) => {
      expectProblem(await platform.ops().post(TENANTS).send(body), 409, 'Operations.TenantConflict');
      expect(await platform.count('user_role', `tenant_id = 'globex' AND subject = 'mallory'`)).toBe(0);
    });

    it.each([
      [{ id: 'Bad Tenant', name: 'x', adminSubject: 'a' }, 'id'],
      [{ id: 'x'.repeat(65), name: 'x', adminSubject: 'a' }, 'id'],
      [{ id: '-lead', name: 'x', adminSubject: 'a' }, 'id'],
      [{ id: 'initech', name: '   ', adminSubject: 'a' }, 'name'],
      [{ id: 'initech', name: 'x'.repeat(201), adminSubject: 'a' }, 'name'],
      [{ id: 'initech', name: 'Initech' }, 'adminSubject'],
      [{ id: 'initech', name: 'Initech', adminSubject: 'a\u0007b' }, 'adminSubject'],
    ])('refuses %j with 400 naming %s, writing nothing', async (body, field) => {
      const res = await platform.ops().post(TENANTS).send(body);
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors).toHaveProperty(field);
      await platform.ops().get(`${TENANTS}/initech`).expect(404);
    });

    it('when the bootstrap call fails: 503 Operations.TenantBootstrapUnavailable, the row kept; the same request again completes it', async () => {
      failNextCall(AuthzRpc.tenantBootstrap.pattern);
      const failed = await platform.ops().post(TENANTS).send({ id: 'initech', name: 'Initech', adminSubject: 'ian' });
      expectProblem(failed, 503, 'Operations.TenantBootstrapUnavailable');
      expect(failed.headers['retry-after']).toBeDefined();
      expect((await platform.ops().get(`${TENANTS}/initech`).expect(200)).body).toMatchObject({ status: 'active', administratorReady: false });
      await platform.as('ian', 'initech').get('/api/authorization/roles').expect(403);

      const retried = await platform.ops().post(TENANTS).send({ id: 'initech', name: 'Initech', adminSubject: 'ian' }).expect(200);
      expect(retried.body).toMatchObject({ id: 'initech', administratorReady: true });
      await platform.as('ian', 'initech').get('/api/authorization/roles').expect(200);
    });
  });

  describe('permissions: tenants.* is platform-level', () => {
    it('denies a platform-tenant user without the permission (403 Authorization.Denied) on every route', async () => {
      expectProblem(await platform.ops('bob').get(TENANTS), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('bob').get(`${TENANTS}/globex`), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('bob').post(TENANTS).send({ id: 'bobco', name: 'Bob', adminSubject: 'bob' }), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('bob').patch(`${TENANTS}/globex`).send({ status: 'suspended' }), 403, 'Authorization.Denied');
    });

    it('denies the administrator of another tenant even with a role holding every catalog permission', async () => {
      expectProblem(await platform.ops('ann', 'acme').get(TENANTS), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('ann', 'acme').post(TENANTS).send({ id: 'annco', name: 'Ann', adminSubject: 'ann' }), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('ann', 'acme').patch(`${TENANTS}/globex`).send({ status: 'suspended' }), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('gwen', 'globex').get(TENANTS), 403, 'Authorization.Denied');
      await platform.ops().get(`${TENANTS}/annco`).expect(404);
    });
  });

  describe('PATCH /tenants/{id}: suspension', () => {
    it('suspends: the tenant administrator is denied on the very next request everywhere; reactivation restores access at once', async () => {
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);
      expect(await decide('gwen', 'globex')).toMatchObject({ outcome: 'Permit' });

      const suspended = await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'suspended' }).expect(200);
      expect(suspended.body).toMatchObject({ id: 'globex', status: 'suspended' });
      expectProblem(await platform.as('gwen', 'globex').get('/api/authorization/roles'), 403, 'Authorization.Denied');
      expectProblem(await platform.ops('gwen', 'globex').get(`${TENANTS}/globex`), 403, 'Authorization.Denied');
      // The self-service routes, which ask no decision, read the same fact.
      for (const path of ['/api/authorization/me/permissions', '/api/authorization/me/menu', '/api/authorization/permission-requests/mine']) {
        expectProblem(await platform.as('gwen', 'globex').get(path), 403, 'Authorization.Denied');
      }
      const filed = await platform.as('gwen', 'globex').post('/api/authorization/permission-requests').send({});
      expectProblem(filed, 403, 'Authorization.Denied');
      // ...and so does their RPC twin, which the MCP gateway asks as the caller.
      const gwen: TrustedCaller = { kind: 'user', subject: 'gwen', tenantId: 'globex', scopes: [], claimsDigest: 'gwen' };
      const rpc = platform.policy.app.get(RpcClient);
      await expect(rpc.call(AuthzRpc.myPermissions, { caller: gwen, payload: {} })).rejects.toMatchObject({
        problem: { status: 403, code: 'Authorization.Denied' },
      });
      const denied = await decide('gwen', 'globex');
      expect(denied.outcome).toBe('Deny');
      expect(denied.refusal).toMatch(/^TenantSuspended: /);
      // Other tenants are untouched.
      await platform.as('ann', 'acme').get('/api/authorization/roles').expect(200);
      expect((await platform.ops().get(TENANTS).expect(200)).body).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: 'globex', status: 'suspended' })]),
      );

      // Recorded as a policy change: the fact, the change log, the outbox event.
      const [fact] = await platform.sql.query(`SELECT status, version::int AS version FROM authz.tenant_status WHERE tenant_id = 'globex'`);
      expect(fact).toEqual({ status: 'suspended', version: 2 });
      expect(await platform.count('policy_change_log', `tenant_id = 'globex' AND change = 'tenant.status-changed'`)).toBe(1);
      const [event] = await platform.sql.query(`SELECT count(*)::int AS n FROM authz.outbox_message WHERE event_type = $1`, [
        EventTypes.authorization.tenantStatusChanged,
      ]);
      expect(event.n).toBe(1);

      // A repeat changes nothing and records nothing.
      await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'suspended' }).expect(200);
      expect(await platform.count('policy_change_log', `tenant_id = 'globex' AND change = 'tenant.status-changed'`)).toBe(1);

      const active = await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'active' }).expect(200);
      expect(active.body.status).toBe('active');
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);
      const mine = (await platform.as('gwen', 'globex').get('/api/authorization/me/permissions').expect(200)).body;
      expect(await rpc.call(AuthzRpc.myPermissions, { caller: gwen, payload: {} })).toEqual(mine);
      expect(await decide('gwen', 'globex')).toMatchObject({ outcome: 'Permit' });
    });

    it('ignores a stale status report: an older version never overrides a newer one', async () => {
      const [{ version }] = await platform.sql.query(`SELECT version::int AS version FROM authz.tenant_status WHERE tenant_id = 'globex'`);
      const result = await platform.policy.app
        .get(RpcClient)
        .call(AuthzRpc.tenantStatus, { caller: admin, payload: { tenantId: 'globex', status: 'suspended', version: version - 1 } });
      expect(result).toMatchObject({ outcome: 'stale', status: 'active', version });
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);
    });

    it('when the status cannot reach policy-management: 503 Operations.TenantStatusUnavailable; the same request again puts it in force', async () => {
      failNextCall(AuthzRpc.tenantStatus.pattern);
      const failed = await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'suspended' });
      expectProblem(failed, 503, 'Operations.TenantStatusUnavailable');
      // Saved, but not yet in force for decisions.
      expect((await platform.ops().get(`${TENANTS}/globex`).expect(200)).body.status).toBe('suspended');
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);

      await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'suspended' }).expect(200);
      expectProblem(await platform.as('gwen', 'globex').get('/api/authorization/roles'), 403, 'Authorization.Denied');
      await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'active' }).expect(200);
      await platform.as('gwen', 'globex').get('/api/authorization/roles').expect(200);
    });

    it('refuses an unknown tenant (404 NotFound) and an unknown status (400)', async () => {
      expectProblem(await platform.ops().patch(`${TENANTS}/nobody`).send({ status: 'suspended' }), 404, 'NotFound');
      expectProblem(await platform.ops().get(`${TENANTS}/nobody`), 404, 'NotFound');
      const res = await platform.ops().patch(`${TENANTS}/globex`).send({ status: 'deleted' });
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors).toHaveProperty('status');
    });

    it('a policy-management refusal is passed through: the status RPC is platform-level too', async () => {
      const ann: TrustedCaller = { kind: 'user', subject: 'ann', tenantId: 'acme', scopes: [], claimsDigest: 'acme:ann' };
      await expect(
        platform.policy.app.get(RpcClient).call(AuthzRpc.tenantStatus, { caller: ann, payload: { tenantId: 'acme', status: 'suspended', version: 99 } }),
      ).rejects.toMatchObject({ problem: { status: 403, code: 'Authorization.Denied' } });
      await expect(
        platform.policy.app.get(RpcClient).call(AuthzRpc.tenantStatus, { caller: admin, payload: { tenantId: 'default', status: 'suspended', version: 1 } }),
      ).rejects.toMatchObject({ problem: { status: 400, code: 'Validation.Failed' } });
    });
  });
});

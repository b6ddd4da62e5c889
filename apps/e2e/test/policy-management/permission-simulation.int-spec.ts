import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const EVALUATE = '/api/authorization/permission-simulation/evaluate';
const REPLAY = '/api/authorization/permission-simulation/replay';
const ROLE_VIEW = { resource: { module: 'authorization', resourceType: 'role' }, action: 'View' };

interface Flip {
  decisionId: string;
  subject: string;
  action: string;
  resource: { module: string; resourceType: string };
  recorded: string;
  before: string;
  after: string;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management permission simulation', () => {
  const platform = new PolicyTestPlatform('perm-sim');
  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  const auditCount = async (where = 'true', params: unknown[] = []): Promise<number> => {
    const [row] = await platform.sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit WHERE ${where}`, params);
    return row.n;
  };
  /** Every row count a simulation must leave as it was. */
  const policyState = async () => ({
    userRoles: await platform.count('user_role'),
    rolePermissions: await platform.count('role_permission'),
    abacRules: await platform.count('abac_rule'),
    featureOverrides: await platform.count('feature_override'),
    log: await platform.count('policy_change_log'),
    outbox: await platform.count('outbox_message'),
  });

  describe('POST /permission-simulation/evaluate', () => {
    it('a subject without roles gets NoMatchingPolicy', async () => {
      const res = await platform.as().post(EVALUATE).send({ subject: 'bob', request: ROLE_VIEW }).expect(200);
      expect(res.body).toEqual(expect.objectContaining({ outcome: 'NoMatchingPolicy', permitted: false, dataScope: { kind: 'none', tenantId: 'default' } }));
      expect(res.body.evaluations).toEqual(expect.arrayContaining([expect.objectContaining({ evaluator: 'RBAC', verdict: 'Neutral' })]));
    });

    it('with a binding in the overlay it permits, and nothing is written, cached or audited', async () => {
      const state = await policyState();
      const bobAudit = await auditCount(`subject = 'bob'`);
      const res = await platform
        .as()
        .post(EVALUATE)
        .send({ subject: 'bob', request: ROLE_VIEW, overlay: { addRoleBindings: [{ subject: 'bob', roleName: 'platform-admin' }] } })
        .expect(200);
      expect(res.body).toEqual(expect.objectContaining({ outcome: 'Permit', permitted: true, dataScope: { kind: 'tenant', tenantId: 'default' } }));
      expect(res.body.evaluations).toEqual(
        expect.arrayContaining([expect.objectContaining({ evaluator: 'RBAC', verdict: 'Allow', reason: expect.stringContaining('platform-admin') })]),
      );
      expect(await policyState()).toEqual(state);
      await platform.flushAudit();
      expect(await auditCount(`subject = 'bob'`)).toBe(bobAudit);
      // bob is still denied for real: the overlay reached no cache either
      await platform.as('bob').get('/api/authorization/roles').expect(403);
    });

    it('applies permission removals, ABAC rules and feature overrides', async () => {
      const adminView = { subject: 'admin', request: ROLE_VIEW };
      await platform
        .as()
        .post(EVALUATE)
        .send(adminView)
        .expect(200)
        .expect((r) => expect(r.body.outcome).toBe('Permit'));
      const revoked = await platform
        .as()
        .post(EVALUATE)
        .send({ ...adminView, overlay: { removeRolePermissions: [{ roleName: 'platform-admin', permissionCode: 'authorization.role.view' }] } })
        .expect(200);
      expect(revoked.body.outcome).toBe('NoMatchingPolicy');
      const denied = await platform
        .as()
        .post(EVALUATE)
        .send({ ...adminView, overlay: { abacRules: { add: [{ priority: 1, verdict: 2, conditions: [], modules: ['authorization'] }] } } })
        .expect(200);
      expect(denied.body.outcome).toBe('Deny');
      expect(denied.body.evaluations).toEqual(expect.arrayContaining([expect.objectContaining({ evaluator: 'ABAC', verdict: 'Deny' })]));
      const tickets = { subject: 'admin', request: { resource: { module: 'tickets', resourceType: 'ticket' }, action: 'View' } };
      // An enabled feature is a gate, not a grant: it opens the module and permits nothing alone.
      await platform
        .as()
        .post(EVALUATE)
        .send(tickets)
        .expect(200)
        .expect((r) =>
          expect(r.body).toMatchObject({
            outcome: 'NoMatchingPolicy',
            evaluations: expect.arrayContaining([expect.objectContaining({ evaluator: 'Feature', verdict: 'Neutral' })]),
          }),
        );
      const off = await platform
        .as()
        .post(EVALUATE)
        .send({ ...tickets, overlay: { features: [{ code: 'tickets', enabled: false }] } })
        .expect(200);
      expect(off.body.outcome).toBe('Deny');
      expect(await platform.count('feature_override')).toBe(0);
    });

    it("works inside the caller's tenant only: another tenant's roles are unknown and its bindings invisible", async () => {
      const unknown = await platform
        .as('ann', 'acme')
        .post(EVALUATE)
        .send({ subject: 'bob', request: ROLE_VIEW, overlay: { addRoleBindings: [{ subject: 'bob', roleName: 'platform-admin' }] } })
        .expect(400);
      expect(unknown.body.code).toBe('Validation.Failed');
      expect(unknown.body.errors['overlay.roleName'][0]).toContain('platform-admin');
      const admin = await platform.as('ann', 'acme').post(EVALUATE).send({ subject: 'admin', request: ROLE_VIEW }).expect(200);
      expect(admin.body.outcome).toBe('NoMatchingPolicy');
      expect(admin.body.dataScope.tenantId).toBe('acme');
    });

    it.each([
      ['an unknown top-level field', { subject: 'bob', request: ROLE_VIEW, tenantId: 'acme' }, 'tenantId'],
      ['an unknown overlay field', { subject: 'bob', request: ROLE_VIEW, overlay: { grantEverything: true } }, 'overlay.grantEverything'],
      ['a malformed binding list', { subject: 'bob', request: ROLE_VIEW, overlay: { addRoleBindings: { subject: 'bob' } } }, 'overlay.addRoleBindings'],
      [
        'a binding without role',
        { subject: 'bob', request: ROLE_VIEW, overlay: { addRoleBindings: [{ subject: 'bob' }] } },
        'overlay.addRoleBindings.0.roleName',
      ],
      ['an overlong subject', { subject: 'b'.repeat(256), request: ROLE_VIEW }, 'subject'],
      ['an unknown action', { subject: 'bob', request: { ...ROLE_VIEW, action: 'Fly' } }, 'request.action'],
      [
        'a bad ABAC verdict',
        { subject: 'bob', request: ROLE_VIEW, overlay: { abacRules: { add: [{ priority: 1, verdict: 3, conditions: [] }] } } },
        'overlay.abacRules.add.0.verdict',
      ],
      [
        'a code outside the catalog',
        { subject: 'bob', request: ROLE_VIEW, overlay: { addRolePermissions: [{ roleName: 'platform-admin', permissionCode: 'x.y.view' }] } },
        'overlay.permissionCode',
      ],
      ['an undefined feature', { subject: 'bob', request: ROLE_VIEW, overlay: { features: [{ code: 'nope', enabled: true }] } }, 'overlay.features'],
      [
        'an unknown ABAC rule id',
        { subject: 'bob', request: ROLE_VIEW, overlay: { abacRules: { remove: ['00000000-0000-0000-0000-000000000000'] } } },
        'overlay.abacRules.remove',
      ],
    ])('refuses %s with 400, writing nothing', async (_what, body, field) => {
      const state = await policyState();
      const res = await platform.as().post(EVALUATE).send(body).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
      expect(await policyState()).toEqual(state);
    });

    it("answers for an application by its token's scopes (AppScope), not by role bindings", async () => {
      const asked = { subject: 'billing-app', callerKind: 'application', request: ROLE_VIEW };
      const scoped = await platform
        .as()
        .post(EVALUATE)
        .send({ ...asked, scopes: ['authorization.role.view'] })
        .expect(200);
      expect(scoped.body).toMatchObject({ outcome: 'Permit', permitted: true });
      expect(scoped.body.evaluations).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ evaluator: 'AppScope', verdict: 'Allow' }),
          expect.objectContaining({ evaluator: 'RBAC', verdict: 'Neutral' }),
        ]),
      );
      const unscoped = await platform
        .as()
        .post(EVALUATE)
        .send({ ...asked, overlay: { addRoleBindings: [{ subject: 'billing-app', roleName: 'platform-admin' }] } })
        .expect(200);
      expect(unscoped.body.permitted).toBe(false);
    });

    it('answers for a delegated caller through the delegation from the subject to the actor, and nothing is written', async () => {
      // admin lets dave act for him on the role list.
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      const grant = await platform
        .as()
        .post('/api/authorization/delegated-admin')
        .send({ actor: 'dave', permissionCodes: ['authorization.role.view'], expiresAt })
        .expect(201);
      const state = await policyState();
      const asDave = await platform.as().post(EVALUATE).send({ subject: 'admin', callerKind: 'delegated', actor: 'dave', request: ROLE_VIEW }).expect(200);
      expect(asDave.body).toMatchObject({ outcome: 'Permit', permitted: true });
      expect(asDave.body.evaluations).toEqual(
        expect.arrayContaining([expect.objectContaining({ evaluator: 'RBAC', verdict: 'Allow', reason: expect.stringContaining('actor dave') })]),
      );
      const named = await platform
        .as()
        .post(EVALUATE)
        .send({ subject: 'admin', callerKind: 'delegated', actor: 'dave', grantId: grant.body.id, request: ROLE_VIEW })
        .expect(200);
      expect(named.body.permitted).toBe(true);
      const asErin = await platform.as().post(EVALUATE).send({ subject: 'admin', callerKind: 'delegated', actor: 'erin', request: ROLE_VIEW }).expect(200);
      expect(asErin.body).toMatchObject({ permitted: false });
      const notCovered = await platform
        .as()
        .post(EVALUATE)
        .send({ subject: 'admin', callerKind: 'delegated', actor: 'dave', request: { ...ROLE_VIEW, action: 'Create' } })
        .expect(200);
      expect(notCovered.body.permitted).toBe(false);
      expect(await policyState()).toEqual(state);
      await platform.flushAudit();
      // The route's own guard decisions are audited (admin's), none in dave's or erin's name.
      expect(await auditCount(`actor IN ('dave', 'erin') OR subject IN ('dave', 'erin')`)).toBe(0);
    });

    it.each([
      ['a delegated caller without actor', { subject: 'admin', callerKind: 'delegated', request: ROLE_VIEW }, 'actor'],
      ['scopes for a user', { subject: 'bob', scopes: ['authorization.role.view'], request: ROLE_VIEW }, 'scopes'],
      ['an actor for an application', { subject: 'app', callerKind: 'application', actor: 'bob', request: ROLE_VIEW }, 'actor'],
      ['an unknown caller kind', { subject: 'bob', callerKind: 'robot', request: ROLE_VIEW }, 'callerKind'],
      ['scopes that are not strings', { subject: 'app', callerKind: 'application', scopes: [1], request: ROLE_VIEW }, 'scopes'],
    ])('refuses %s with 400 naming the field', async (_what, body, field) => {
      const res = await platform.as().post(EVALUATE).send(body).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('denies a caller without authorization.permission-simulation.view, and writes nothing', async () => {
      const state = await policyState();
      const denied = await platform
        .as('bob')
        .post(EVALUATE)
        .send({ subject: 'billing-app', callerKind: 'application', scopes: ['authorization.role.view'], request: ROLE_VIEW })
        .expect(403);
      expect(denied.body.code).toBe('Authorization.Denied');
      const res = await platform
        .as('bob')
        .post(EVALUATE)
        .send({ subject: 'bob', request: ROLE_VIEW, overlay: { addRoleBindings: [{ subject: 'bob', roleName: 'platform-admin' }] } })
        .expect(403);
      expect(res.body.code).toBe('Authorization.Denied');
      expect(await policyState()).toEqual(state);
    });
  });

  describe('POST /permission-simulation/replay', () => {
    beforeAll(async () => {
      await platform.as().get('/api/authorization/roles').expect(200);
      await platform.as().get('/api/authorization/roles').expect(200);
      await platform.as('bob').get('/api/authorization/roles').expect(403);
      await platform.as('ann', 'acme').get('/api/authorization/roles').expect(200);
      await platform.flushAudit();
    });

    it("flips admin's audited Permits when the overlay takes platform-admin away, and writes nothing", async () => {
      const state = await policyState();
      const res = await platform
        .as()
        .post(REPLAY)
        .send({ overlay: { removeRoleBindings: [{ subject: 'admin', roleName: 'platform-admin' }] }, sample: 500 })
        .expect(200);
      // Everything decided before the call is written; the replay route's own guard decision may or
      // may not have been written when the replay read the audit, so it counts as one either way.
      await platform.flushAudit();
      const tenantRows = await auditCount(`tenant_id = 'default'`);
      expect(tenantRows).toBeLessThan(500);
      expect(res.body.replayed + res.body.skipped).toBeGreaterThanOrEqual(tenantRows - 1);
      expect(res.body.replayed + res.body.skipped).toBeLessThanOrEqual(tenantRows);
      expect(res.body.skipped).toBe(0);
      const flips: Flip[] = res.body.flipped;
      expect(flips.length).toBeGreaterThanOrEqual(2);
      for (const flip of flips) {
        expect(flip).toEqual(expect.objectContaining({ subject: 'admin', before: 'Permit', after: 'NoMatchingPolicy' }));
      }
      expect(flips.some((f) => f.resource.resourceType === 'role' && f.action === 'View' && f.recorded === 'Permit')).toBe(true);
      const ids: string[] = (await platform.sql.query(`SELECT decision_id FROM authz_audit.decision_audit WHERE tenant_id = 'acme'`)).map(
        (r: { decision_id: string }) => r.decision_id,
      );
      expect(flips.some((f) => ids.includes(f.decisionId))).toBe(false);
      expect(await policyState()).toEqual(state);
      await platform.as().get('/api/authorization/roles').expect(200); // admin keeps the role for real
    });

    it('flips nothing under an empty overlay, and bounds the sample', async () => {
      const res = await platform.as().post(REPLAY).send({ sample: 3 }).expect(200);
      expect(res.body).toEqual({ replayed: 3, skipped: 0, flipped: [] });
      const future = await platform
        .as()
        .post(REPLAY)
        .send({ from: '2099-01-01T00:00:00Z', overlay: { removeRoleBindings: [{ subject: 'admin', roleName: 'platform-admin' }] } })
        .expect(200);
      expect(future.body).toEqual({ replayed: 0, skipped: 0, flipped: [] });
    });

    it("replays only the caller's tenant", async () => {
      const acmeRows = await auditCount(`tenant_id = 'acme'`);
      const res = await platform
        .as('ann', 'acme')
        .post(REPLAY)
        .send({ overlay: { removeRoleBindings: [{ subject: 'ann', roleName: 'tenant-admin' }] }, sample: 500 })
        .expect(200);
      // acme's rows only (the replay route's own guard decision may or may not be written yet)
      expect(res.body.replayed).toBeGreaterThanOrEqual(acmeRows);
      expect(res.body.replayed).toBeLessThanOrEqual(acmeRows + 1);
      expect(res.body.flipped.length).toBeGreaterThanOrEqual(1);
      expect((res.body.flipped as Flip[]).every((f) => f.subject === 'ann')).toBe(true);
      const defaultIds: string[] = (await platform.sql.query(`SELECT decision_id FROM authz_audit.decision_audit WHERE tenant_id = 'default'`)).map(
        (r: { decision_id: string }) => r.decision_id,
      );
      expect((res.body.flipped as Flip[]).some((f) => defaultIds.includes(f.decisionId))).toBe(false);
      const foreign = await platform
        .as('ann', 'acme')
        .post(REPLAY)
        .send({ overlay: { removeRoleBindings: [{ subject: 'admin', roleName: 'platform-admin' }] } })
        .expect(400);
      expect(foreign.body.errors['overlay.roleName']).toBeDefined();
    });

    it.each([
      [{ sample: 0 }, 'sample'],
      [{ sample: 501 }, 'sample'],
      [{ sample: 1.5 }, 'sample'],
      [{ sample: '10' }, 'sample'],
      [{ from: 'yesterday' }, 'from'],
      [{ from: '2030-02-01T00:00:00Z', to: '2030-01-01T00:00:00Z' }, 'to'],
      [{ overlay: { removeRoleBindings: [{ subject: 'admin', roleName: 'platform-admin', extra: 1 }] } }, 'overlay.removeRoleBindings.0.extra'],
      [{ overlay: [] }, 'overlay'],
      [{ subject: 'admin' }, 'subject'],
    ])('refuses %j with 400, writing nothing', async (body, field) => {
      const state = await policyState();
      const res = await platform.as().post(REPLAY).send(body).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
      expect(await policyState()).toEqual(state);
    });

    it('denies a caller without authorization.permission-simulation.view, and writes nothing', async () => {
      const state = await policyState();
      const res = await platform.as('bob').post(REPLAY).send({}).expect(403);
      expect(res.body.code).toBe('Authorization.Denied');
      expect(await policyState()).toEqual(state);
    });
  });
});

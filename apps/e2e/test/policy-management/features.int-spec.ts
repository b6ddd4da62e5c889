import request from 'supertest';
import { AuthzRpc, EventTypes, PLATFORM_FEATURES, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const FEATURES = '/api/authorization/features';

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management features', () => {
  const platform = new PolicyTestPlatform('features');

  /** Gives `subject` of `tenantId` a role holding exactly `codes` (raw SQL, announced as the event would). */
  async function grant(tenantId: string, subject: string, roleName: string, codes: string[]) {
    await platform.sql.transaction(async (m) => {
      const [role] = await m.query(`INSERT INTO authz.role (tenant_id, name) VALUES ($1, $2) RETURNING id, name`, [tenantId, roleName]);
      await m.query(
        `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
         SELECT $1, $2, $3, p.id, p.code, p.module, 'test' FROM authz.permission p WHERE p.code = ANY($4)`,
        [tenantId, role.id, role.name, codes],
      );
      await m.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ($1, $2, $3, $4, 'test')`, [
        tenantId,
        subject,
        role.id,
        role.name,
      ]);
    });
    await platform.invalidate(EventTypes.authorization.userRoleAssigned, tenantId, { tenantId, subject });
  }

  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
    await platform.seedTenantAdmin('globex', 'gus');
    // tim administers acme's features but not the platform defaults.
    await grant('acme', 'tim', 'feature-admin', ['authorization.feature.view', 'authorization.feature.update']);
  }, 90_000);
  afterAll(() => platform.stop());

  const ann = () => platform.as('ann', 'acme');

  function featureStatus(tenantId: string, featureCode: string) {
    const caller: TrustedCaller = { kind: 'user', subject: 'cara', tenantId, scopes: [], claimsDigest: 'cara' };
    return platform.policy.app.get(RpcClient).call(AuthzRpc.featureStatus, { caller, payload: { featureCode } });
  }

  /**
   * The Feature gate of a real decision of the decision service for `sub` of `tenantId` viewing a
   * resource of `module`: `open` (Neutral, FeatureEnabled: a feature is a gate, not a grant) or
   * `closed` (Deny). Nobody here holds a grant on these modules, so an open gate permits nothing.
   */
  async function gate(sub: string, tenantId: string, module: string): Promise<'open' | 'closed'> {
    const res = await request(platform.decisionInstances[0]!.http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${platform.token({ sub, tenantId })}`)
      .send({ resource: { module, resourceType: 'item' }, action: 'View' })
      .expect(200);
    const feature = res.body.reasons.find((e: { evaluator: string }) => e.evaluator === 'Feature');
    if (feature.verdict === 'Neutral' && feature.reason.startsWith('FeatureEnabled') && res.body.outcome === 'NoMatchingPolicy') return 'open';
    if (feature.verdict === 'Deny' && res.body.outcome === 'Deny') return 'closed';
    throw new Error(`unexpected decision ${JSON.stringify(res.body)}`);
  }

  const state = async () => ({
    definitions: await platform.sql.query(`SELECT code, default_enabled FROM authz.feature_definition ORDER BY code`),
    overrides: await platform.sql.query(`SELECT tenant_id, feature_code, enabled FROM authz.feature_override ORDER BY tenant_id, feature_code`),
    log: await platform.count('policy_change_log'),
    outbox: await platform.count('outbox_message'),
  });

  it('lists every definition with its global default, the caller tenant override and the effective value', async () => {
    const res = await ann().get(FEATURES).expect(200);
    expect(res.body.items).toEqual(
      [...PLATFORM_FEATURES]
        .sort((a, b) => a.code.localeCompare(b.code))
        .map((f) => ({ code: f.code, description: f.description, globalDefault: true, tenantOverride: null, effective: true })),
    );
  });

  it('a tenant override decides that tenant only, on the very next request, and clearing it restores the default', async () => {
    expect(await gate('cara', 'acme', 'tickets')).toBe('open');
    expect(await gate('dan', 'globex', 'tickets')).toBe('open');

    const put = await ann().put(`${FEATURES}/tickets`).send({ enabled: false, scope: 'tenant' }).expect(200);
    expect(put.body).toEqual({ code: 'tickets', description: 'Tickets module', globalDefault: true, tenantOverride: false, effective: false });
    expect(await gate('cara', 'acme', 'tickets')).toBe('closed');
    expect(await gate('dan', 'globex', 'tickets')).toBe('open');
    expect(await gate('cara', 'acme', 'chat')).toBe('open'); // another feature
    // authz.feature.status (the MCP gateway's check) reads the same value, for the caller's own tenant only.
    expect(await featureStatus('acme', 'tickets')).toEqual({ tenantId: 'acme', featureCode: 'tickets', enabled: false, defined: true });
    expect(await featureStatus('globex', 'tickets')).toEqual({ tenantId: 'globex', featureCode: 'tickets', enabled: true, defined: true });
    expect(await featureStatus('acme', 'no-such-feature')).toEqual({ tenantId: 'acme', featureCode: 'no-such-feature', enabled: false, defined: false });

    const acmeView = (await ann().get(FEATURES).expect(200)).body.items.find((f: { code: string }) => f.code === 'tickets');
    expect(acmeView).toMatchObject({ tenantOverride: false, effective: false });
    const globexView = (await platform.as('gus', 'globex').get(FEATURES).expect(200)).body.items.find((f: { code: string }) => f.code === 'tickets');
    expect(globexView).toMatchObject({ tenantOverride: null, effective: true });

    const [log] = await platform.sql.query(
      `SELECT tenant_id, actor, change, target_type, before, after FROM authz.policy_change_log WHERE target_id = 'tickets' AND change = 'feature.tenant-changed'`,
    );
    expect(log).toEqual({
      tenant_id: 'acme',
      actor: 'ann',
      change: 'feature.tenant-changed',
      target_type: 'feature',
      before: { tenantOverride: null },
      after: { tenantOverride: false },
    });
    const events = await platform.sql.query(
      `SELECT envelope FROM authz.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'featureCode' = 'tickets'`,
      [EventTypes.authorization.featureChanged],
    );
    expect(events.map((e: { envelope: object }) => e.envelope)).toEqual([
      expect.objectContaining({ tenantId: 'acme', payload: { featureCode: 'tickets', scope: 'tenant', tenantId: 'acme', enabled: false, previous: null } }),
    ]);

    // The same value again changes nothing and records nothing.
    const before = await state();
    await ann().put(`${FEATURES}/tickets`).send({ enabled: false, scope: 'tenant' }).expect(200);
    expect(await state()).toEqual(before);

    await ann().delete(`${FEATURES}/tickets/override`).expect(204);
    expect(await gate('cara', 'acme', 'tickets')).toBe('open');
    expect(await featureStatus('acme', 'tickets')).toMatchObject({ enabled: true });
    expect(await platform.count('feature_override', `tenant_id = 'acme' AND feature_code = 'tickets'`)).toBe(0);
    const [cleared] = await platform.sql.query(
      `SELECT tenant_id, before, after FROM authz.policy_change_log WHERE target_id = 'tickets' AND change = 'feature.override-cleared'`,
    );
    expect(cleared).toEqual({ tenant_id: 'acme', before: { tenantOverride: false }, after: { tenantOverride: null } });
    expect(
      await platform.count('outbox_message', `event_type = $1 AND envelope->'payload'->>'featureCode' = 'tickets'`, [EventTypes.authorization.featureChanged]),
    ).toBe(2);

    // No override left: clearing again is a no-op.
    const idle = await state();
    await ann().delete(`${FEATURES}/tickets/override`).expect(204);
    expect(await state()).toEqual(idle);
  });

  it('a global default off denies every tenant without override, while an override on still allows', async () => {
    await ann().put(`${FEATURES}/chat`).send({ enabled: true, scope: 'tenant' }).expect(200);
    for (const [sub, tenant] of [
      ['cara', 'acme'],
      ['dan', 'globex'],
      ['eve', 'default'],
    ] as const)
      expect(await gate(sub, tenant, 'chat')).toBe('open');

    const put = await platform.as().put(`${FEATURES}/chat`).send({ enabled: false, scope: 'global' }).expect(200);
    expect(put.body).toMatchObject({ code: 'chat', globalDefault: false, tenantOverride: null, effective: false });
    expect(await gate('dan', 'globex', 'chat')).toBe('closed');
    expect(await gate('eve', 'default', 'chat')).toBe('closed');
    expect(await gate('cara', 'acme', 'chat')).toBe('open');
    expect((await ann().get(FEATURES).expect(200)).body.items.find((f: { code: string }) => f.code === 'chat')).toMatchObject({
      globalDefault: false,
      tenantOverride: true,
      effective: true,
    });

    const [row] = await platform.sql.query(`SELECT default_enabled FROM authz.feature_definition WHERE code = 'chat'`);
    expect(row.default_enabled).toBe(false);
    const [log] = await platform.sql.query(
      `SELECT tenant_id, actor, before, after FROM authz.policy_change_log WHERE target_id = 'chat' AND change = 'feature.global-changed'`,
    );
    expect(log).toEqual({ tenant_id: null, actor: 'admin', before: { globalDefault: true }, after: { globalDefault: false } });
    const [event] = await platform.sql.query(
      `SELECT envelope FROM authz.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'featureCode' = 'chat' AND envelope->'payload'->>'scope' = 'global'`,
      [EventTypes.authorization.featureChanged],
    );
    expect(event.envelope).toMatchObject({ tenantId: null, payload: { featureCode: 'chat', scope: 'global', tenantId: null, enabled: false, previous: true } });

    await platform.as().put(`${FEATURES}/chat`).send({ enabled: true, scope: 'global' }).expect(200);
    expect(await gate('dan', 'globex', 'chat')).toBe('open');
  });

  it('refuses a global change to a tenant feature admin without authorization.feature-default.update, and nothing changes', async () => {
    const tim = () => platform.as('tim', 'acme');
    const before = await state();
    const res = await tim().put(`${FEATURES}/reporting`).send({ enabled: false, scope: 'global' }).expect(403);
    expect(res.body.code).toBe('Authorization.Denied');
    expect(await state()).toEqual(before);
    expect(await gate('dan', 'globex', 'reporting')).toBe('open');

    // The same caller may change its tenant's override: the refusal came from the extra permission.
    await tim().put(`${FEATURES}/reporting`).send({ enabled: false, scope: 'tenant' }).expect(200);
    expect(await gate('cara', 'acme', 'reporting')).toBe('closed');
    await tim().delete(`${FEATURES}/reporting/override`).expect(204);
    expect(await gate('cara', 'acme', 'reporting')).toBe('open');
  });

  it('denies every route to a caller without the permission, and nothing changes', async () => {
    const bob = () => platform.as('bob', 'acme');
    await ann().put(`${FEATURES}/workflow`).send({ enabled: false, scope: 'tenant' }).expect(200);
    const before = await state();
    for (const res of [
      await bob().get(FEATURES),
      await bob().put(`${FEATURES}/workflow`).send({ enabled: true, scope: 'tenant' }),
      await bob().put(`${FEATURES}/workflow`).send({ enabled: false, scope: 'global' }),
      await bob().delete(`${FEATURES}/workflow/override`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('Authorization.Denied');
    }
    expect(await state()).toEqual(before);
    await ann().delete(`${FEATURES}/workflow/override`).expect(204);
  });

  it("never touches another tenant's override, and answers 404 for an unknown feature with nothing changed", async () => {
    const gus = () => platform.as('gus', 'globex');
    await ann().put(`${FEATURES}/mcp.access`).send({ enabled: false, scope: 'tenant' }).expect(200);
    const before = await state();
    await gus().delete(`${FEATURES}/mcp.access/override`).expect(204); // globex has none: acme's stays
    expect((await gus().get(FEATURES).expect(200)).body.items.find((f: { code: string }) => f.code === 'mcp.access')).toMatchObject({
      tenantOverride: null,
      effective: true,
    });
    for (const res of [
      await ann().put(`${FEATURES}/teleport`).send({ enabled: false, scope: 'tenant' }),
      await platform.as().put(`${FEATURES}/teleport`).send({ enabled: false, scope: 'global' }),
      await ann().delete(`${FEATURES}/teleport/override`),
      await ann()
        .put(`${FEATURES}/${'x'.repeat(300)}`)
        .send({ enabled: false, scope: 'tenant' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NotFound');
    }
    expect(await state()).toEqual(before);
    expect(await gate('cara', 'acme', 'mcp')).toBe('closed');
    await ann().delete(`${FEATURES}/mcp.access/override`).expect(204);
  });

  it('rejects malformed bodies with problem+json and writes nothing', async () => {
    const before = await state();
    const cases: Array<[object, string]> = [
      [{ enabled: 'yes', scope: 'tenant' }, 'enabled'],
      [{ enabled: false, scope: 'planet' }, 'scope'],
      [{ enabled: false }, 'scope'],
      [{ scope: 'tenant' }, 'enabled'],
      [{ enabled: false, scope: 'tenant', tenantId: 'globex' }, 'tenantId'],
      [{ enabled: false, scope: 'x'.repeat(5000) }, 'scope'],
    ];
    for (const [body, field] of cases) {
      const res = await ann().put(`${FEATURES}/tickets`).send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.code).toBe('Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect(await state()).toEqual(before);
  });
});

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'authz-decision with AUTHZ_FEATURE_ENABLED_VERDICT=allow (spec-literal)', () => {
  const platform = new PolicyTestPlatform('features-literal', { env: { AUTHZ_FEATURE_ENABLED_VERDICT: 'allow' } });

  beforeAll(() => platform.start(), 90_000);
  afterAll(() => platform.stop());

  async function decide(sub: string, tenantId: string, module: string) {
    const res = await request(platform.decisionInstances[0]!.http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${platform.token({ sub, tenantId })}`)
      .send({ resource: { module, resourceType: 'item' }, action: 'Delete' })
      .expect(200);
    return res.body;
  }

  it('lets an enabled feature alone permit a caller who holds nothing, and a disabled one still deny', async () => {
    const open = await decide('nobody', 'acme', 'tickets');
    expect(open).toMatchObject({
      outcome: 'Permit',
      reasons: expect.arrayContaining([{ evaluator: 'Feature', verdict: 'Allow', reason: 'FeatureEnabled: feature tickets enabled' }]),
    });
    await platform.as().put(`${FEATURES}/chat`).send({ enabled: false, scope: 'global' }).expect(200);
    expect(await decide('nobody', 'acme', 'chat')).toMatchObject({ outcome: 'Deny' });
    // A simulation answers what the service would, under the same setting.
    const simulated = await platform
      .as()
      .post('/api/authorization/permission-simulation/evaluate')
      .send({ subject: 'nobody', request: { resource: { module: 'tickets', resourceType: 'ticket' }, action: 'View' } })
      .expect(200);
    expect(simulated.body.outcome).toBe('Permit');
  });
});

import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AuthorizationAction, EventTypes, AuthzRpc, TrustedCaller, FLEET_SERVICE_NAMES } from '@lp/contracts';
import { signAccessToken } from '@lp/platform/auth';
import { createEventEnvelope, EventBus, RpcClient, MessagingNames } from '@lp/platform/messaging';
import { createServiceApp, PlatformRuntime, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteTestRunResources, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { authzDecisionService, DecisionAuditWriter } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';

/**
 * The decision runtime as a service on the production profile: facts written into `authz` the way
 * policy-management writes them (same transaction shape, then the integration event), decisions
 * asked over RabbitMQ from another service, two authz-decision instances sharing Redis revisions.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'authz-decision on PostgreSQL, RabbitMQ and Redis', () => {
  const secret = randomBytes(32).toString('base64url'); // a fresh signing secret per run
  let db: TestDatabase;
  let runtime: PlatformRuntime;
  let policy: ServiceApp;
  const decisionInstances: ServiceApp[] = [];
  let rpc: RpcClient;
  let bus: EventBus;
  let sql: DataSource;

  const alice: TrustedCaller = { kind: 'user', subject: 'alice', tenantId: 'acme', scopes: [], claimsDigest: 'alice-v1' };
  const ask = (caller: TrustedCaller, module: string, resourceType: string, action: AuthorizationAction, extra = {}) =>
    rpc.call(AuthzRpc.decide, { caller, payload: { resource: { module, resourceType, ...extra }, action } });

  async function publish(eventType: string, tenantId: string | null, payload: Record<string, unknown>) {
    await bus.publish(createEventEnvelope(eventType, payload, { tenantId }));
  }

  async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last = await probe();
    while (!accept(last) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      last = await probe();
    }
    return last;
  }

  const runId = testRunId('dr');
  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('decide'));
    runtime = await startPlatformRuntime('decision-runtime-test', {
      DATABASE_URL: db.url,
      AMQP_URL: testServerUrls.rabbitmq,
      AMQP_PREFIX: `${runId}.`,
      REDIS_URL: testServerUrls.redis,
      REDIS_KEY_PREFIX: `${runId}:`,
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
      AUDIT_FLUSH_INTERVAL_MS: '20',
      USER_POLICY_LIMIT: '5',
    });
    policy = await createServiceApp(policyManagementService, runtime);
    decisionInstances.push(await createServiceApp(authzDecisionService, runtime));
    decisionInstances.push(await createServiceApp(authzDecisionService, runtime));
    rpc = policy.app.get(RpcClient);
    bus = policy.app.get(EventBus);
    sql = policy.app.get(DataSource);

    await sql.query(`INSERT INTO authz.permission (code, module, resource, action) VALUES
      ('cases.case.view', 'cases', 'case', 'View'), ('authorization.role.view', 'authorization', 'role', 'View')
      ON CONFLICT (code) DO NOTHING`);
    await sql.query(`INSERT INTO authz.role (id, tenant_id, name, data_scope) VALUES
      ('00000000-0000-0000-0000-0000000000a1', 'acme', 'clerk', 'tenant'),
      ('00000000-0000-0000-0000-0000000000b1', 'globex', 'clerk', 'tenant')`);
    await sql.query(`INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
      SELECT r.tenant_id, r.id, r.name, p.id, p.code, p.module, 'test' FROM authz.role r CROSS JOIN authz.permission p
       WHERE r.tenant_id IN ('acme', 'globex') AND p.code IN ('cases.case.view', 'authorization.role.view')`);
    // Explanations take the simulator's permission: alice and nobody may ask for their own in globex.
    await sql.query(`INSERT INTO authz.permission (code, module, resource, action) VALUES
      ('authorization.permission-simulation.view', 'authorization', 'permission-simulation', 'View') ON CONFLICT (code) DO NOTHING`);
    await sql.query(
      `INSERT INTO authz.role (id, tenant_id, name, data_scope) VALUES ('00000000-0000-0000-0000-0000000000b2', 'globex', 'explainer', 'tenant')`,
    );
    await sql.query(`INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
      SELECT r.tenant_id, r.id, r.name, p.id, p.code, p.module, 'test' FROM authz.role r CROSS JOIN authz.permission p
       WHERE r.id = '00000000-0000-0000-0000-0000000000b2' AND p.code = 'authorization.permission-simulation.view'`);
    await sql.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES
      ('globex', 'alice', '00000000-0000-0000-0000-0000000000b2', 'explainer', 'test'),
      ('globex', 'nobody', '00000000-0000-0000-0000-0000000000b2', 'explainer', 'test')`);
  }, 90_000);

  afterAll(async () => {
    for (const { app } of [...decisionInstances].reverse()) await app.close();
    await policy?.app.close();
    await runtime?.close();
    await db?.drop();
    await deleteTestRunResources({ amqp: `${runId}.`, redis: `${runId}:`, brokerObjects: new MessagingNames(`${runId}.`).durableObjects(FLEET_SERVICE_NAMES) });
  });

  it('assign → decide → revoke → decide: the revocation reaches every instance', async () => {
    expect((await ask(alice, 'cases', 'case', AuthorizationAction.View)).outcome).toBe('NoMatchingPolicy');

    await sql.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by)
      VALUES ('acme', 'alice', '00000000-0000-0000-0000-0000000000a1', 'clerk', 'test')`);
    await publish(EventTypes.authorization.userRoleAssigned, 'acme', { subject: 'alice', roleName: 'clerk' });
    const permitted = await eventually(
      () => ask(alice, 'cases', 'case', AuthorizationAction.View),
      (r) => r.permitted,
    );
    expect(permitted).toMatchObject({ outcome: 'Permit', permitted: true, dataScope: { kind: 'tenant', tenantId: 'acme' } });
    // The reply is lean: the guard's fields, no per-evaluator reasons unless asked for.
    expect(Object.keys(permitted).sort()).toEqual(['cached', 'dataScope', 'decisionId', 'obligations', 'outcome', 'permitted']);
    const withReasons = await rpc.call(AuthzRpc.decide, {
      caller: alice,
      payload: { resource: { module: 'cases', resourceType: 'case' }, action: AuthorizationAction.View, withReasons: true },
    });
    expect(withReasons.evaluations?.find((e) => e.evaluator === 'RBAC')?.reason).toMatch(/clerk/);
    expect(withReasons).not.toHaveProperty('revisions');
    expect(JSON.stringify(permitted).length * 2).toBeLessThan(JSON.stringify(withReasons).length);
    const [batchLean, batchFull] = await rpc.call(AuthzRpc.decideBatch, {
      caller: alice,
      payload: {
        requests: [
          { resource: { module: 'cases', resourceType: 'case' }, action: AuthorizationAction.View },
          { resource: { module: 'cases', resourceType: 'case' }, action: AuthorizationAction.View, withReasons: true },
        ],
      },
    });
    expect(batchLean).not.toHaveProperty('evaluations');
    expect(batchFull!.evaluations).toHaveLength(5);

    // Several calls spread over both instances (competing consumers), served from the cache.
    const repeats = await Promise.all(Array.from({ length: 8 }, () => ask(alice, 'cases', 'case', AuthorizationAction.View)));
    expect(repeats.every((r) => r.permitted)).toBe(true);
    expect(repeats.some((r) => r.cached)).toBe(true);
    expect(new Set(repeats.map((r) => r.decisionId)).size).toBe(8);

    await sql.query(`DELETE FROM authz.user_role WHERE tenant_id = 'acme' AND subject = 'alice'`);
    await publish(EventTypes.authorization.userRoleRevoked, 'acme', { subject: 'alice', roleName: 'clerk' });
    const revoked = await eventually(
      () => ask(alice, 'cases', 'case', AuthorizationAction.View),
      (r) => !r.permitted,
    );
    expect(revoked.outcome).toBe('NoMatchingPolicy');
    const after = await Promise.all(Array.from({ length: 8 }, () => ask(alice, 'cases', 'case', AuthorizationAction.View)));
    expect(after.every((r) => !r.permitted)).toBe(true);
  });

  it('keeps tenants apart: a role of the same name in another tenant gives nothing here', async () => {
    await sql.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by)
      VALUES ('globex', 'alice', '00000000-0000-0000-0000-0000000000b1', 'clerk', 'test')`);
    await publish(EventTypes.authorization.userRoleAssigned, 'globex', { subject: 'alice' });
    const inGlobex = await eventually(
      () => ask({ ...alice, tenantId: 'globex' }, 'cases', 'case', AuthorizationAction.View),
      (r) => r.permitted,
    );
    expect(inGlobex.dataScope).toEqual({ kind: 'tenant', tenantId: 'globex' });
    expect((await ask(alice, 'cases', 'case', AuthorizationAction.View)).permitted).toBe(false);
  });

  it('lets the first real route through once the caller holds its permission, and audits every decision', async () => {
    const token = signAccessToken({ sub: 'bob', tenantId: 'acme' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    await request(policy.http).get('/api/authorization/roles').set('Authorization', `Bearer ${token}`).expect(403);
    await sql.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by)
      VALUES ('acme', 'bob', '00000000-0000-0000-0000-0000000000a1', 'clerk', 'test')`);
    await publish(EventTypes.authorization.userRoleAssigned, 'acme', { subject: 'bob' });
    const res = await eventually(
      () => request(policy.http).get('/api/authorization/roles').set('Authorization', `Bearer ${token}`),
      (r) => r.status === 200,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { name: string }) => r.name)).toEqual(['clerk']); // acme's only

    const audit = await eventually(
      () =>
        rpc.call(AuthzRpc.queryAudit, {
          caller: { ...alice, subject: 'auditor' },
          payload: { subject: 'bob', pageSize: 50 },
        }),
      (page) => page.items.some((i) => i.outcome === 'Permit') && page.items.some((i) => i.outcome === 'NoMatchingPolicy'),
    );
    expect(audit.items.every((i) => i.subject === 'bob')).toBe(true);
    expect(audit.items.map((i) => i.outcome)).toEqual(expect.arrayContaining(['Permit', 'NoMatchingPolicy']));
  });

  it("answers the token's own caller over HTTP: 200 for any outcome, 400 for a malformed question", async () => {
    const http = decisionInstances[0]!.http;
    const token = signAccessToken({ sub: 'alice', tenantId: 'globex' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const ask = (path: string, body: unknown) =>
      request(http)
        .post(`/api/authorization/decisions${path}`)
        .set('Authorization', `Bearer ${token}`)
        .send(body as object);

    await request(http)
      .post('/api/authorization/decisions')
      .send({ resource: { module: 'cases', resourceType: 'case' }, action: 'View' })
      .expect(401);
    const permit = await ask('', { resource: { module: 'cases', resourceType: 'case' }, action: 'View' }).expect(200);
    expect(permit.body).toMatchObject({ outcome: 'Permit', dataScope: { kind: 'tenant', tenantId: 'globex' } });
    expect(permit.body.reasons.map((r: { evaluator: string }) => r.evaluator)).toEqual(['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature']);
    const none = await ask('', { resource: { module: 'billing', resourceType: 'invoice' }, action: 'Delete' }).expect(200);
    expect(none.body.outcome).toBe('NoMatchingPolicy');

    for (const bad of [
      { resource: { module: 'cases', resourceType: 'case' }, action: 'Launch' },
      { resource: { resourceType: 'case' }, action: 'View' },
      { resource: { module: 'cases', resourceType: 'case', tenantId: 'acme' }, action: 'View' },
    ]) {
      const res = await ask('', bad).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
    }

    const item = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };
    const batch = await ask('/batch', { items: [item, { ...item, action: 'Delete' }] }).expect(200);
    expect(batch.body.items.map((r: { outcome: string }) => r.outcome)).toEqual(['Permit', 'NoMatchingPolicy']);
    const oversized = await ask('/batch', { items: Array.from({ length: 101 }, () => item) }).expect(400);
    expect(oversized.body.errors.items.join(' ')).toMatch(/at most 100/);
    await ask('/batch', { items: [] }).expect(400);
  });

  it("explains the token's own caller's decision over HTTP to a holder of the simulator's permission: every evaluator's inputs, the merge, the DataScope, audited", async () => {
    const http = decisionInstances[0]!.http;
    const tokenOf = (sub: string) => signAccessToken({ sub, tenantId: 'globex' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const post = (path: string, token: string, body: unknown) =>
      request(http)
        .post(`/api/authorization/decisions${path}`)
        .set('Authorization', `Bearer ${token}`)
        .send(body as object);
    const question = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };

    const explained = await post('/explain', tokenOf('alice'), question).expect(200);
    const body = explained.body;
    expect(body.decision).toMatchObject({ outcome: 'Permit', dataScope: { kind: 'tenant', tenantId: 'globex' } });
    expect(body.question).toEqual({ caller: { kind: 'user', subject: 'alice', tenantId: 'globex', scopes: [] }, ...question });
    expect(body.permissionCode).toBe('cases.case.view');
    expect(body.evaluators.map((e: { evaluator: string }) => e.evaluator)).toEqual(['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature']);
    const rbac = body.evaluators.find((e: { evaluator: string }) => e.evaluator === 'RBAC');
    expect(rbac).toMatchObject({ verdict: 'Allow', inputs: { subject: 'alice', permissionCode: 'cases.case.view' } });
    expect(rbac.inputs.roles).toEqual([
      expect.objectContaining({ roleName: 'clerk', holdsCode: true }),
      expect.objectContaining({ roleName: 'explainer', holdsCode: false }),
    ]);
    expect(body.merge).toMatchObject({ outcome: 'Permit', permitted: true, rule: 'AnyAllow', denialReasons: [] });
    expect(body.dataScope).toMatchObject({ dataScope: { kind: 'tenant', tenantId: 'globex' }, rule: expect.any(String) });
    // Nothing of the token, nor the cache's claims digest, is echoed.
    expect(JSON.stringify(body)).not.toMatch(/claimsDigest|expiresAt|eyJ/);

    // The explanation's decision is the decision POST /decisions gives for the same question.
    const decided = await post('', tokenOf('alice'), question).expect(200);
    const { decisionId: _explainedId, ...explainedDecision } = body.decision;
    const { decisionId: _decidedId, ...decidedDecision } = decided.body;
    expect(explainedDecision).toEqual(decidedDecision);

    // A user holding nothing for cases: NoMatchingPolicy, every evaluator Neutral, no role holding the code.
    const nothing = await post('/explain', tokenOf('nobody'), question).expect(200);
    expect(nothing.body.decision.outcome).toBe('NoMatchingPolicy');
    expect(nothing.body.merge).toMatchObject({ outcome: 'NoMatchingPolicy', rule: 'AllNeutral' });
    expect(nothing.body.evaluators.find((e: { evaluator: string }) => e.evaluator === 'RBAC').inputs.roles).toEqual([
      expect.objectContaining({ roleName: 'explainer', holdsCode: false }),
    ]);
    expect(nothing.body.dataScope.dataScope.kind).toBe('none');
    const nothingDecided = await post('', tokenOf('nobody'), question).expect(200);
    expect(nothingDecided.body.outcome).toBe(nothing.body.decision.outcome);

    // Audited like a decision.
    for (const { app } of decisionInstances) await app.get(DecisionAuditWriter).flush();
    const rows = await sql.query(`SELECT subject, outcome FROM authz_audit.decision_audit WHERE decision_id = $1`, [body.decision.decisionId]);
    expect(rows).toEqual([{ subject: 'alice', outcome: 'Permit' }]);

    await request(http).post('/api/authorization/decisions/explain').send(question).expect(401);
    // Without the simulator's permission: refused, like any guarded route.
    const refused = await post('/explain', tokenOf('stranger'), question).expect(403);
    expect(refused.body.code).toBe('Authorization.Denied');
    for (const bad of [
      { ...question, action: 'Launch' },
      { resource: { resourceType: 'case' }, action: 'View' },
      { ...question, extra: 1 },
    ]) {
      const res = await post('/explain', tokenOf('alice'), bad).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('Validation.Failed');
    }
  });

  it('is not limited as a write: more decision queries and explanations than USER_POLICY_LIMIT all answer 200', async () => {
    const http = decisionInstances[0]!.http;
    const token = signAccessToken({ sub: 'alice', tenantId: 'globex' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const item = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await request(http).post('/api/authorization/decisions').set('Authorization', `Bearer ${token}`).send(item)).status);
      statuses.push((await request(http).post('/api/authorization/decisions/explain').set('Authorization', `Bearer ${token}`).send(item)).status);
      statuses.push(
        (
          await request(http)
            .post('/api/authorization/decisions/batch')
            .set('Authorization', `Bearer ${token}`)
            .send({ items: [item] })
        ).status,
      );
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('records the correlation id of the request in the audit row, over HTTP (single and batch) and RPC', async () => {
    const http = decisionInstances[0]!.http;
    const token = signAccessToken({ sub: 'alice', tenantId: 'globex' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const item = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };
    const single = await request(http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Correlation-Id', 'corr-audit-http')
      .send(item)
      .expect(200);
    const batch = await request(http)
      .post('/api/authorization/decisions/batch')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Correlation-Id', 'corr-audit-batch')
      .send({ items: [item, item] })
      .expect(200);
    const viaRpc = await rpc.call(AuthzRpc.decide, {
      caller: alice,
      payload: { resource: { module: 'cases', resourceType: 'case' }, action: AuthorizationAction.View, correlationId: 'corr-audit-rpc' },
    });
    for (const { app } of decisionInstances) await app.get(DecisionAuditWriter).flush();
    const correlationOf = async (decisionId: string) =>
      (await sql.query(`SELECT correlation_id FROM authz_audit.decision_audit WHERE decision_id = $1`, [decisionId]))[0]?.correlation_id;
    expect(await correlationOf(single.body.decisionId)).toBe('corr-audit-http');
    for (const answer of batch.body.items as Array<{ decisionId: string }>) expect(await correlationOf(answer.decisionId)).toBe('corr-audit-batch');
    expect(await correlationOf(viaRpc.decisionId)).toBe('corr-audit-rpc');
  });

  it('refuses what the audit could not store (NUL, lone surrogates) at the edge, over RPC and HTTP, and audits nothing for it', async () => {
    for (const { app } of decisionInstances) await app.get(DecisionAuditWriter).flush();
    const before = (await sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit`))[0].n;
    for (const resourceId of ['a\u0000b', 'a\ud800b']) {
      await expect(
        rpc.call(AuthzRpc.decide, {
          caller: alice,
          payload: { resource: { module: 'cases', resourceType: 'case', resourceId }, action: AuthorizationAction.View },
        }),
      ).rejects.toMatchObject({ problem: { status: 400, code: 'Validation.Failed', errors: { 'resource.resourceId': expect.any(Array) } } });
    }
    const token = signAccessToken({ sub: 'alice', tenantId: 'globex' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const res = await request(decisionInstances[0]!.http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${token}`)
      .send({ resource: { module: 'cases', resourceType: 'case', resourceId: 'a\u0000b' }, action: 'View' })
      .expect(400);
    expect(res.body.errors['resource.resourceId']).toBeDefined();
    for (const { app } of decisionInstances) await app.get(DecisionAuditWriter).flush();
    expect((await sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit`))[0].n).toBe(before);
  });

  // Each authenticated before (signed with the real key): 403 on guarded routes, but POST /decisions
  // answered 200 and audited a decision for that "tenant" (the NUL reached PostgreSQL as 22P05).
  it('refuses a token whose tenant_id breaks the tenant id rule with 401, over HTTP and RPC, and audits nothing for it', async () => {
    const badTenants = ['Default', 'default ', '../default', 'default\u0000', 'd'.repeat(300)];
    const sign = (tenantId: string) => signAccessToken({ sub: 'alice', tenantId }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const question = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };
    const audited = async (tenants: string[]) => {
      for (const { app } of decisionInstances) await app.get(DecisionAuditWriter).flush();
      return (await sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit WHERE tenant_id = ANY ($1::text[])`, [tenants]))[0].n as number;
    };
    const everything = async () => {
      for (const { app } of decisionInstances) await app.get(DecisionAuditWriter).flush();
      return (await sql.query(`SELECT count(*)::int AS n FROM authz_audit.decision_audit`))[0].n as number;
    };
    const before = await everything();
    for (const tenantId of badTenants) {
      const token = sign(tenantId);
      const decided = await request(decisionInstances[0]!.http).post('/api/authorization/decisions').set('Authorization', `Bearer ${token}`).send(question);
      expect([tenantId.slice(0, 12), decided.status, decided.body.code]).toEqual([tenantId.slice(0, 12), 401, 'Authentication.Required']);
      const guarded = await request(policy.http).get('/api/authorization/roles').set('Authorization', `Bearer ${token}`);
      expect([tenantId.slice(0, 12), guarded.status]).toEqual([tenantId.slice(0, 12), 401]);
      // A caller built elsewhere and sent over the broker is held to the same rule.
      await expect(rpc.call(AuthzRpc.decide, { caller: { ...alice, tenantId }, payload: question as never })).rejects.toMatchObject({
        problem: { status: 400, code: 'Validation.Failed', errors: { 'caller.tenantId': expect.any(Array) } },
      });
    }
    // PostgreSQL text holds no NUL: that one is counted by the total below.
    expect(await audited(badTenants.filter((t) => !t.includes('\u0000')))).toBe(0);
    expect(await everything()).toBe(before);
    // A valid tenant still decides, and is audited.
    await request(decisionInstances[0]!.http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${sign('globex')}`)
      .send(question)
      .expect(200);
    expect(await everything()).toBe(before + 1);
  });

  it('answers a malformed request with a validation problem, never a Permit', async () => {
    await expect(rpc.send(AuthzRpc.decide.pattern, { caller: alice, payload: { resource: { module: 'cases' }, action: 'Launch' } })).rejects.toMatchObject({
      problem: { status: 400, code: 'Validation.Failed' },
    });
  });
});

import { FLEET_SERVICE_NAMES } from '@lp/contracts';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { signAccessToken } from '@lp/platform/auth';
import { createServiceApp, PlatformRuntime, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteTestRunResources, describeWithServers, TcpOutageProxy, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';
import { MessagingNames } from '@lp/platform/messaging';

// Issue 31 item 10: during a PostgreSQL outage one caller got `ServiceUnavailable` from
// POST /api/authorization/decisions and `Authorization.Unavailable` from a guarded route for the same
// outage. The decision routes now answer as the guard does (docs/decisions.md, One outage, one code).
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'one outage, one code: the decision routes answer a PostgreSQL cut as the guard does', () => {
  const secret = randomBytes(32).toString('base64url');
  const runId = testRunId('dout');
  const target = new URL(testServerUrls.postgres);
  const proxy = new TcpOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
  let db: TestDatabase;
  let runtime: PlatformRuntime;
  const apps: ServiceApp[] = [];
  let decision: ServiceApp;
  let cut = false;

  const token = () => signAccessToken({ sub: 'admin', tenantId: 'default' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
  const post = (path: string, body: object) => request(decision.http).post(path).set('Authorization', `Bearer ${token()}`).send(body);
  // The question explain's guard asks, asked on the decision route too: both face the same cache.
  const guardQuestion = { resource: { module: 'authorization', resourceType: 'permission-simulation' }, action: 'View' };

  beforeAll(async () => {
    await proxy.start();
    db = await createTestDatabase(testServerUrls.postgres, runId);
    const throughProxy = new URL(db.url);
    throughProxy.host = proxy.url;
    runtime = await startPlatformRuntime('decision-outage-test', {
      DATABASE_URL: throughProxy.toString(),
      AMQP_URL: testServerUrls.rabbitmq,
      AMQP_PREFIX: `${runId}.`,
      REDIS_URL: testServerUrls.redis,
      REDIS_KEY_PREFIX: `${runId}:`,
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
      AUDIT_FLUSH_INTERVAL_MS: '20',
    });
    // policy-management migrates and seeds `authz` (the admin), which authz-decision reads.
    apps.push(await createServiceApp(policyManagementService, runtime));
    decision = await createServiceApp(authzDecisionService, runtime);
    apps.push(decision);
  }, 90_000);

  afterAll(async () => {
    if (cut) await proxy.start();
    for (const { app } of apps.reverse()) await app.close();
    await runtime?.close();
    await proxy.stop();
    await db?.drop();
    await deleteTestRunResources({ amqp: `${runId}.`, redis: `${runId}:`, brokerObjects: new MessagingNames(`${runId}.`).durableObjects(FLEET_SERVICE_NAMES) });
  });

  it('answers 503 Authorization.Unavailable with Retry-After on the decision route, its batch and a guarded route of the service alike, and answers again once PostgreSQL is back', async () => {
    // Before the cut: another question, so nothing the cut asks first is in the decision cache.
    const cachedQuestion = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };
    const before = await post('/api/authorization/decisions', cachedQuestion);
    expect(before.status).toBe(200);

    await proxy.stop();
    cut = true;
    const answers: Record<string, { status: number; code?: string; retryAfter?: string }> = {};
    for (const [name, path, body] of [
      ['decision', '/api/authorization/decisions', guardQuestion],
      // Decided before the cut: a cache hit whose DataScope is read again from the store.
      ['cachedDecision', '/api/authorization/decisions', cachedQuestion],
      ['batch', '/api/authorization/decisions/batch', { items: [guardQuestion] }],
      ['guarded', '/api/authorization/decisions/explain', guardQuestion],
    ] as const) {
      const res = await post(path, body);
      answers[name] = { status: res.status, code: res.body.code, retryAfter: res.headers['retry-after'] };
    }
    const unavailable = { status: 503, code: 'Authorization.Unavailable', retryAfter: '1' };
    // Before the fix: decision and batch 200 (a Deny that hid the outage), cachedDecision 503 ServiceUnavailable.
    expect(answers).toEqual({ decision: unavailable, cachedDecision: unavailable, batch: unavailable, guarded: unavailable });

    await proxy.start();
    cut = false;
    // The pool reconnects on its next query; bounded wait for the decision route to answer again.
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await post('/api/authorization/decisions', guardQuestion)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    expect((await post('/api/authorization/decisions/explain', guardQuestion)).status).toBe(200);
  }, 60_000);
});

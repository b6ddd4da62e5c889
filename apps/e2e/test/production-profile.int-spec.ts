import { FLEET_SERVICE_NAMES } from '@lp/contracts';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { signAccessToken } from '@lp/platform/auth';
import { createServiceApp, PlatformRuntime, ServiceApp, standaloneListener, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteTestRunResources, describeWithServers, scanRedisKeys, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { fleetServices } from '@lp/fleet';
import { MessagingNames } from '@lp/platform/messaging';

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'service apps on the production profile (PostgreSQL, RabbitMQ, Redis)', () => {
  const secret = randomBytes(32).toString('base64url'); // a fresh signing secret per run
  const runId = testRunId('rt');
  const redisPrefix = `${runId}:`;
  const amqpPrefix = `${runId}.`;
  let db: TestDatabase;
  let runtime: PlatformRuntime;
  const apps: ServiceApp[] = [];
  const byName = (name: string) => apps.find((a) => a.definition.name === name)!;

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('runtime'));
    runtime = await startPlatformRuntime('runtime-test', {
      DATABASE_URL: db.url,
      AMQP_URL: testServerUrls.rabbitmq,
      AMQP_PREFIX: amqpPrefix,
      REDIS_URL: testServerUrls.redis,
      REDIS_KEY_PREFIX: redisPrefix,
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
      AUTHZ_DECISION_TIMEOUT_MS: '2000',
    });
    for (const service of fleetServices) apps.push(await createServiceApp(service, runtime));
  }, 60_000);

  afterAll(async () => {
    for (const { app } of apps.reverse()) await app.close();
    await runtime?.close();
    await db?.drop();
    await deleteTestRunResources({ amqp: amqpPrefix, redis: redisPrefix, brokerObjects: new MessagingNames(amqpPrefix).durableObjects(FLEET_SERVICE_NAMES) });
  });

  it('picks each adapter from its own variable', () => {
    expect(runtime.database.embedded).toBe(false);
    expect(runtime.messaging.kind).toBe('rabbitmq');
    expect(runtime.cache.redisUrl).toBe(testServerUrls.redis);
  });

  it('is live and ready with database, broker and cache checked', async () => {
    const policy = byName('policy-management');
    await request(policy.http).get('/health/live').expect(200);
    const ready = await request(policy.http).get('/health/ready').expect(200);
    expect(Object.keys(ready.body.details).sort()).toEqual(['broker', 'cache', 'database']);
  });

  it('migrates each service into its own schema', async () => {
    const decision = byName('authz-decision');
    const policy = byName('policy-management');
    const rows = await policy.app
      .get(DataSource)
      .query(`SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ('authz', 'authz_audit') ORDER BY 1, 2`);
    const tables = rows.map((r: { table_schema: string; table_name: string }) => `${r.table_schema}.${r.table_name}`);
    expect(tables).toEqual(expect.arrayContaining(['authz.role', 'authz.outbox_message', 'authz_audit.outbox_message']));
    expect(decision.definition.database.schema).toBe('authz_audit');
  });

  it('guards routes through a real RPC to authz-decision: a caller holding no role is denied, the seeded admin permitted', async () => {
    const policy = byName('policy-management');
    await request(policy.http).get('/api/authorization/roles').expect(401);
    const sign = (sub: string) => signAccessToken({ sub, tenantId: 'default' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    const res = await request(policy.http)
      .get('/api/authorization/roles')
      .set('Authorization', `Bearer ${sign('nobody')}`)
      .expect(403);
    expect(res.body.code).toBe('Authorization.Denied');
    await request(policy.http)
      .get('/api/authorization/roles')
      .set('Authorization', `Bearer ${sign('admin')}`)
      .expect(200);
  });

  it('counts the userPolicy limit in Redis under the service prefix, so it holds across replicas', async () => {
    const policy = byName('policy-management');
    const sign = (sub: string) => signAccessToken({ sub, tenantId: 'default' }, { secret, issuer: runtime.jwt.issuer, audience: runtime.jwt.audience });
    // Counted before the authorization guard refuses it.
    await request(policy.http)
      .post('/api/authorization/roles')
      .set('Authorization', `Bearer ${sign('nobody')}`)
      .send({})
      .expect(403);
    const redis = new Redis(testServerUrls.redis, { maxRetriesPerRequest: 1 });
    try {
      const keys = await scanRedisKeys(redis, `${redisPrefix}policy-management:throttle:*`);
      expect(keys).toEqual([expect.stringMatching(/:throttle:\{[0-9a-f]+:userPolicy\}:hits$/)]);
    } finally {
      redis.disconnect();
    }
  });

  it('serves its OpenAPI document with the bearer scheme', async () => {
    const policy = byName('policy-management');
    const doc = await request(policy.http).get('/openapi/policy-management.json').expect(200);
    expect(doc.body.paths['/api/authorization/roles'].get).toBeDefined();
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Each service has its own explorer at /docs over its own document.
    for (const app of apps) {
      await request(app.http).get('/docs').expect(200);
      const start = await request(app.http).get('/docs/explorer.js').expect(200);
      expect(start.text).toContain(`/openapi/${app.definition.name}.json`);
      await request(app.http).get('/docs/assets/swagger-ui.css').expect(200);
    }
  });

  // Issue 31 item 9: the explorer (where the admin token is pasted), the documents, probes, metrics
  // and the 404s answered outside any route carried no security headers, and some answers no
  // correlation id. Every answer of a service app and of the standalone's dispatcher carries both.
  describe('every answer carries the security headers and the correlation id', () => {
    const paths = [
      '/docs',
      '/docs/explorer.js',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/..%2f..%2fpackage.json',
      '/openapi/authz-decision.json',
      '/health/live',
      '/health/ready',
      '/metrics',
      '/',
      '/api/',
      '/api/nope',
      '/console/../../etc/passwd',
      '/api/authorization/decisions',
    ];

    async function expectBaseline(http: Parameters<typeof request>[0], path: string): Promise<void> {
      // supertest sends the path as written (`..` included), as curl --path-as-is does.
      const res = await request(http).get(path);
      const seen = {
        path,
        csp: res.headers['content-security-policy'],
        nosniff: res.headers['x-content-type-options'],
        referrer: res.headers['referrer-policy'],
        frame: res.headers['x-frame-options'],
        correlationHeader: /^[0-9a-f-]{36}$/.test(String(res.headers['x-correlation-id'])),
      };
      expect(seen).toEqual({
        path,
        csp: expect.stringMatching(/^default-src 'self';.*script-src 'self'; frame-ancestors 'none'; base-uri 'none'/),
        nosniff: 'nosniff',
        referrer: 'no-referrer',
        frame: 'DENY',
        correlationHeader: true,
      });
      if (/problem\+json/.test(String(res.headers['content-type']))) {
        expect({ path, correlationId: res.body.correlationId }).toEqual({ path, correlationId: res.headers['x-correlation-id'] });
      }
    }

    it('on a service app of the fleet (authz-decision)', async () => {
      const decision = byName('authz-decision');
      for (const path of paths) await expectBaseline(decision.http, path);
    });

    it("on the standalone's one port: dispatched to a service, and its own explorer, console, probes, metrics and 404", async () => {
      const standalone = standaloneListener(apps, { console: { directory: '/nonexistent-console-build', client: {} } });
      for (const path of [...paths, '/console/', '/openapi/policy-management.json', '/api/authorization/roles']) await expectBaseline(standalone, path);
    });

    it('keeps a sane correlation id the client sent, in the header and the problem body', async () => {
      const standalone = standaloneListener(apps, { console: { directory: '/nonexistent-console-build', client: {} } });
      for (const path of ['/api/nope', '/docs/assets/..%2f..%2fpackage.json', '/api/authorization/roles']) {
        const res = await request(standalone).get(path).set('X-Correlation-Id', 'corr-31-9');
        expect({ path, header: res.headers['x-correlation-id'], body: res.body.correlationId }).toEqual({ path, header: 'corr-31-9', body: 'corr-31-9' });
      }
    });

    it('serves the explorer page with no inline script, only this origin’s assets, and a policy that admits them', async () => {
      const page = await request(byName('authz-decision').http).get('/docs').expect(200);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
      const scripts = [...page.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes).toMatch(/^ src="\/docs\/[^"]+"$/);
      expect(page.text).not.toMatch(/<style|style=/);
      for (const [, asset] of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
        await request(byName('authz-decision').http).get(asset!).expect(200);
      }
    });
  });
});

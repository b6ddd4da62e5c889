import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventTypes, AuthzRpc, SEEDED_ADMIN_SUBJECT, SEEDED_TENANT, FLEET_SERVICE_NAMES } from '@lp/contracts';
import { AccessTokenSubject, signAccessToken } from '@lp/platform/auth';
import { createEventEnvelope, RpcClient, RpcRemoteError, MessagingNames } from '@lp/platform/messaging';
import { createServiceApp, PlatformRuntime, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteTestRunResources, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { authzDecisionService, DecisionAuditWriter } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';

/** An RFC 9457 answer: the status, the problem+json media type and the stable code. */
export function expectProblem(res: { status: number; body: { code: string }; headers: Record<string, string> }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(res.body.code).toBe(code);
}

/** supertest on one app's HTTP handler, every request carrying the bearer `token`. */
export function signedRequests(http: unknown, token: string) {
  const auth = `Bearer ${token}`;
  const app = http as Parameters<typeof request>[0];
  return {
    get: (path: string) => request(app).get(path).set('Authorization', auth),
    post: (path: string) => request(app).post(path).set('Authorization', auth),
    put: (path: string) => request(app).put(path).set('Authorization', auth),
    patch: (path: string) => request(app).patch(path).set('Authorization', auth),
    delete: (path: string) => request(app).delete(path).set('Authorization', auth),
  };
}

/**
 * policy-management with the real decision service behind its guard, on PostgreSQL, RabbitMQ and
 * Redis, in a database, queue prefix and key prefix of its own. Use inside
 * `describeWithServers(['postgres', 'rabbitmq', 'redis'], ...)`:
 *
 *   const platform = new PolicyTestPlatform('roles');
 *   beforeAll(() => platform.start(), 90_000);
 *   afterAll(() => platform.stop());
 *   await platform.as('admin').post('/api/authorization/roles').send({ name: 'clerk' }).expect(201);
 *
 * The seed has run at start: tenant `default`, role `platform-admin` with every catalog permission,
 * bound to subject `admin`. `as(sub, tenant)` signs a token for any other caller.
 */
export class PolicyTestPlatform {
  private readonly secret = randomBytes(32).toString('base64url');
  private db?: TestDatabase;
  /** The run's own name: database, `AMQP_PREFIX` (`<id>.`) and `REDIS_KEY_PREFIX` (`<id>:`). */
  id?: string;
  runtime!: PlatformRuntime;
  policy!: ServiceApp;
  readonly decisionInstances: ServiceApp[] = [];
  /** policy-management's DataSource: for assertions that nothing was written. */
  sql!: DataSource;

  constructor(
    private readonly name: string,
    private readonly options: { decisionInstances?: number; env?: Record<string, string> } = {},
  ) {}

  async start(): Promise<this> {
    const id = testRunId(this.name);
    this.id = id;
    this.db = await createTestDatabase(testServerUrls.postgres, id);
    this.runtime = await startPlatformRuntime(`policy-test-${this.name}`, {
      DATABASE_URL: this.db.url,
      AMQP_URL: testServerUrls.rabbitmq,
      AMQP_PREFIX: `${id}.`,
      REDIS_URL: testServerUrls.redis,
      REDIS_KEY_PREFIX: `${id}:`,
      JWT_SECRET: this.secret,
      // The webhook dispatcher's key for subscription secrets (otherwise generated under ./.data).
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
      AUDIT_FLUSH_INTERVAL_MS: '20',
      ...this.options.env,
    });
    this.policy = await createServiceApp(policyManagementService, this.runtime);
    for (let i = 0; i < (this.options.decisionInstances ?? 1); i++) {
      this.decisionInstances.push(await createServiceApp(authzDecisionService, this.runtime));
    }
    this.sql = this.policy.app.get(DataSource);
    return this;
  }

  async stop(): Promise<void> {
    for (const { app } of [...this.decisionInstances].reverse()) await app.close();
    await this.policy?.app.close();
    await this.runtime?.close();
    await this.db?.drop();
    if (this.id)
      await deleteTestRunResources({
        amqp: `${this.id}.`,
        redis: `${this.id}:`,
        brokerObjects: new MessagingNames(`${this.id}.`).durableObjects(FLEET_SERVICE_NAMES),
      });
  }

  token(subject: Partial<AccessTokenSubject> & { sub?: string; tenantId?: string } = {}): string {
    const claims = { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT, ...subject } as AccessTokenSubject;
    return signAccessToken(claims, { secret: this.secret, issuer: this.runtime.jwt.issuer, audience: this.runtime.jwt.audience });
  }

  /** Requests to policy-management as `sub` of `tenantId` (default: the seeded admin of tenant default). */
  as(sub: string = SEEDED_ADMIN_SUBJECT, tenantId: string = SEEDED_TENANT, extra: Partial<AccessTokenSubject> = {}) {
    return signedRequests(this.policy.http, this.token({ sub, tenantId, ...extra }));
  }

  /**
   * Gives `subject` of `tenantId` a role `tenant-admin` holding every catalog permission, written
   * directly and announced to the decision service (as a change through the routes would be).
   */
  seedTenantAdmin(tenantId: string, subject: string): Promise<void> {
    return this.grantRole(tenantId, subject, 'tenant-admin');
  }

  /** Binds `subject` to role `roleName` (created if missing) holding `codes` (default: the whole catalog), then announces it. */
  grantRole(tenantId: string, subject: string, roleName: string, codes?: string[]): Promise<void> {
    return this.grantRoles(tenantId, [{ subject, role: roleName, codes }]);
  }

  /**
   * `grantRole` for many bindings of one tenant: one transaction and one announcement naming every
   * subject (a suite that sets up dozens of tenants saves a round trip per binding).
   */
  async grantRoles(tenantId: string, bindings: Array<{ subject: string; role: string; codes?: string[] }>): Promise<void> {
    await this.sql.transaction(async (m) => {
      for (const { subject, role: roleName, codes } of bindings) {
        const [role] = await m.query(
          `INSERT INTO authz.role (tenant_id, name, description) VALUES ($1, $2, 'test role')
           ON CONFLICT (tenant_id, name) DO UPDATE SET description = EXCLUDED.description RETURNING id, name`,
          [tenantId, roleName],
        );
        await m.query(
          `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
           SELECT $1, $2, $3, p.id, p.code, p.module, 'test' FROM authz.permission p
            WHERE $4::text[] IS NULL OR p.code = ANY ($4::text[]) ON CONFLICT DO NOTHING`,
          [tenantId, role.id, role.name, codes ?? null],
        );
        await m.query(
          `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ($1, $2, $3, $4, 'test') ON CONFLICT DO NOTHING`,
          [tenantId, subject, role.id, role.name],
        );
      }
    });
    const subjects = [...new Set(bindings.map((b) => b.subject))];
    await this.invalidateAll(subjects.map((subject) => ({ eventType: EventTypes.authorization.userRoleAssigned, tenantId, payload: { tenantId, subject } })));
  }

  /** Bumps the decision service's revisions as the event would (after raw SQL writes in a test). */
  invalidate(eventType: string, tenantId: string | null, payload: object): Promise<void> {
    return this.invalidateAll([{ eventType, tenantId, payload }]);
  }

  /** `invalidate` for several events in one call. */
  async invalidateAll(events: Array<{ eventType: string; tenantId: string | null; payload: object }>): Promise<void> {
    const caller = { kind: 'user' as const, subject: 'test', tenantId: events[0]?.tenantId ?? SEEDED_TENANT, scopes: [], claimsDigest: 'test' };
    const envelopes = events.map((e) => createEventEnvelope(e.eventType, e.payload, { tenantId: e.tenantId }));
    // A 503 (Redis too slow to answer within its command timeout, on a loaded machine) says "retry
    // shortly", as the outbox's redelivery would in production: retried for up to 10 s.
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await this.policy.app.get(RpcClient).call(AuthzRpc.invalidate, { caller, payload: { events: envelopes } });
        return;
      } catch (error) {
        const unavailable = error instanceof RpcRemoteError && error.problem.status === 503;
        if (!unavailable || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * Writes every decision recorded so far on every decision instance: after it, the audit table
   * holds every decision answered before the call (the writer is asynchronous; counting without
   * this races it).
   */
  async flushAudit(): Promise<void> {
    for (const { app } of this.decisionInstances) await app.get(DecisionAuditWriter).flush();
  }

  /** Row count of an `authz` table, for "nothing was written" assertions. */
  async count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    const [row] = await this.sql.query(`SELECT count(*)::int AS n FROM "authz"."${table}" WHERE ${where}`, params);
    return row.n as number;
  }
}

import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, INestApplication, Injectable, MiddlewareConsumer, Module, NestModule, Param, Post } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AuthorizationAction, DataScope, DecisionRequest, DecisionResult, AuthzRpc, TrustedCaller } from '@lp/contracts';
import { AuthModule, Caller, signAccessToken } from '@lp/platform/auth';
import { createValidationPipe, ProblemDetailsFilter } from '@lp/platform/http';
import { MessagingModule, MessagingProfile, RpcClient, RpcController, RpcHandler, rpcMicroserviceOptions, MessagingNames } from '@lp/platform/messaging';
import { CorrelationMiddleware } from '@lp/platform/observability';
import { createTestDatabase, deleteTestRunResources, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import {
  applyDataScope,
  Authorize,
  AuthzGuardModule,
  CurrentDataScope,
  PermissionCheck,
  PermissionCollector,
  ResourceFactsInput,
  ResourceFactsLoader,
} from '../src';

/**
 * The guard against a test decision server on the real RabbitMQ: the decision server is a stand-in
 * for authz-decision whose answer each test scripts, so every branch of the guard is exercised over
 * the real broker and the real RPC client.
 */
const secret = randomBytes(32).toString('base64url'); // a fresh signing secret per run
const jwt = { secret, issuer: 'guard-test', audience: 'guard-test-api' };

type Script = (request: DecisionRequest) => Promise<DecisionResult> | DecisionResult;
const decisionServer = { script: (() => permit()) as Script, received: [] as DecisionRequest[] };

function permit(dataScope?: DataScope): DecisionResult {
  return {
    outcome: 'Permit',
    permitted: true,
    decisionId: 'd-permit',
    evaluations: [{ evaluator: 'RBAC', verdict: 'Allow', reason: 'role clerk' }],
    obligations: [],
    dataScope: dataScope ?? { kind: 'tenant', tenantId: 'acme' },
    cached: false,
  };
}
function refuse(outcome: 'Deny' | 'NoMatchingPolicy'): DecisionResult {
  return { ...permit(), outcome, permitted: false, decisionId: `d-${outcome}` };
}

@RpcController()
class StubDecisionController {
  @RpcHandler(AuthzRpc.decide)
  async decide(@Payload() req: DecisionRequest, @Ctx() _ctx: unknown) {
    decisionServer.received.push(req);
    return decisionServer.script(req);
  }
}
@Module({ controllers: [StubDecisionController] })
class StubDecisionModule {}

/** Loads the widget's facts from the database by route id: the body never declares them. */
@Injectable()
class WidgetFacts implements ResourceFactsLoader {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}
  async load(input: ResourceFactsInput) {
    const [row] = await this.ds.query(`SELECT id, owner, status FROM widget WHERE id = $1 AND tenant_id = $2`, [input.params['id'], input.caller.tenantId]);
    return row ? { resourceId: row.id, owner: row.owner, status: row.status } : { resourceId: input.params['id'] };
  }
}

const handlerRuns = { create: 0, publish: 0 };

@Controller('widgets')
class WidgetController {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly permissions: PermissionCheck,
  ) {}

  @Post()
  @Authorize({ module: 'inventory', resource: 'widget', action: AuthorizationAction.Create })
  async create(@Caller() caller: TrustedCaller, @Body() body: { id: string; status?: string }) {
    handlerRuns.create += 1;
    await this.ds.transaction((m) =>
      m.query(`INSERT INTO widget (id, tenant_id, owner, status) VALUES ($1, $2, $3, 'Open')`, [body.id, caller.tenantId, caller.subject]),
    );
    return { id: body.id };
  }

  @Get()
  @Authorize({ module: 'inventory', resource: 'widget', action: AuthorizationAction.View })
  async list(@CurrentDataScope() scope: DataScope) {
    const qb = this.ds.createQueryBuilder().select('w.id', 'id').from('widget', 'w').orderBy('w.id');
    return (await applyDataScope(qb, scope, { tenant: 'w.tenant_id', owner: 'w.owner', id: 'w.id' }).getRawMany()).map((r) => r.id);
  }

  @Post(':id/close')
  @Authorize({ module: 'inventory', resource: 'widget', action: AuthorizationAction.Update, facts: WidgetFacts })
  close(@Param('id') id: string) {
    return { closed: id };
  }

  /** Publishing needs Approve on top of the route's Update: asked inside the handler. */
  @Post(':id/publish')
  @Authorize({ module: 'inventory', resource: 'widget', action: AuthorizationAction.Update })
  async publish(@Caller() caller: TrustedCaller, @Param('id') id: string) {
    await this.permissions.require(caller, { module: 'inventory', resource: 'widget', action: AuthorizationAction.Approve, facts: { resourceId: id } });
    handlerRuns.publish += 1;
    return { published: id };
  }

  @Get('undeclared')
  undeclared() {
    return { leaked: true };
  }
}

@RpcController()
class WidgetRpcController {
  @MessagePattern('inventory.widget.count')
  @Authorize({ module: 'inventory', resource: 'widget', action: AuthorizationAction.View })
  count() {
    return { count: 42 };
  }
}

describeWithServers(['rabbitmq', 'postgres'], '@Authorize guard against a decision server on RabbitMQ', () => {
  const prefix = `${testRunId('guard')}.`;
  const profile: MessagingProfile = { kind: 'rabbitmq', url: testServerUrls.rabbitmq, prefix };
  let db: TestDatabase;
  let decisionApp: INestApplication;
  let app: INestApplication;
  let rpc: RpcClient;
  const token = (sub: string, tenantId = 'acme') => signAccessToken({ sub, tenantId }, jwt);

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('guard'));
    const setup = new DataSource({ type: 'postgres', url: db.url });
    await setup.initialize();
    await setup.query(`CREATE TABLE widget (id text PRIMARY KEY, tenant_id text NOT NULL, owner text NOT NULL, status text NOT NULL)`);
    await setup.query(`INSERT INTO widget VALUES ('w-acme-1','acme','alice','Open'), ('w-acme-2','acme','bob','Closed'), ('w-other','other','alice','Open')`);
    await setup.destroy();

    decisionApp = await NestFactory.create(StubDecisionModule, { logger: false });
    decisionApp.connectMicroservice(rpcMicroserviceOptions(profile, 'authz-decision'));
    await decisionApp.startAllMicroservices();
    await decisionApp.init();

    @Module({
      imports: [
        AuthModule.forRoot(jwt),
        AuthzGuardModule.forRoot({ decisionTimeoutMs: 400, service: 'guard-test' }),
        TypeOrmModule.forRoot({ type: 'postgres', url: db.url }),
        MessagingModule.forRoot({ profile, service: 'guard-test' }),
      ],
      controllers: [WidgetController, WidgetRpcController],
      providers: [WidgetFacts, { provide: APP_FILTER, useClass: ProblemDetailsFilter }, { provide: APP_PIPE, useFactory: createValidationPipe }],
    })
    class GuardedAppModule implements NestModule {
      configure(consumer: MiddlewareConsumer) {
        consumer.apply(CorrelationMiddleware).forRoutes('*path');
      }
    }

    app = await NestFactory.create(GuardedAppModule, { logger: false });
    // inheritAppConfig: the global guard must cover RPC handlers too (the runtime hands the same guard
    // instance to the RPC server's own enhancers instead, see applyRpcEnhancers).
    app.connectMicroservice(rpcMicroserviceOptions(profile, 'guard-test'), { inheritAppConfig: true });
    await app.startAllMicroservices();
    await app.init();
    rpc = app.get(RpcClient);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await decisionApp?.close();
    await db?.drop();
    await deleteTestRunResources({ amqp: prefix, brokerObjects: new MessagingNames(prefix).durableObjects(['guard-test', 'authz-decision']) });
  });

  beforeEach(() => {
    decisionServer.received = [];
    decisionServer.script = () => permit();
    handlerRuns.create = 0;
    handlerRuns.publish = 0;
  });

  async function widgetCount(): Promise<number> {
    const [{ n }] = await app.get(DataSource).query(`SELECT count(*)::int AS n FROM widget`);
    return n;
  }

  it('asks for a decision built from the token, the declaration and the action, and runs the handler on Permit', async () => {
    const res = await request(app.getHttpServer())
      .post('/widgets')
      .set('Authorization', `Bearer ${token('alice')}`)
      .set('X-Correlation-Id', 'corr-guard-1')
      .send({ id: 'w-new' });
    expect(res.status).toBe(201);
    expect(handlerRuns.create).toBe(1);
    const asked = decisionServer.received[0]!;
    expect(asked.caller).toMatchObject({ kind: 'user', subject: 'alice', tenantId: 'acme' });
    expect(asked.action).toBe(AuthorizationAction.Create);
    expect(asked.resource).toEqual({ module: 'inventory', resourceType: 'widget' });
    expect(asked.correlationId).toBe('corr-guard-1');
  });

  it.each([
    ['Deny', () => refuse('Deny')],
    ['NoMatchingPolicy', () => refuse('NoMatchingPolicy')],
    ['a malformed answer', () => ({ outcome: 'Permit' }) as DecisionResult],
  ])('denies with 403 Authorization.Denied on %s: the handler does not run and nothing is written', async (_label, script) => {
    decisionServer.script = script as Script;
    const before = await widgetCount();
    const res = await request(app.getHttpServer())
      .post('/widgets')
      .set('Authorization', `Bearer ${token('alice')}`)
      .send({ id: 'w-denied' });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('Authorization.Denied');
    expect(handlerRuns.create).toBe(0);
    expect(await widgetCount()).toBe(before);
  });

  it.each([
    ['a timeout', () => new Promise<DecisionResult>((r) => setTimeout(() => r(permit()), 1_500))],
    ['a failing decision service', () => Promise.reject(new Error('evaluator store down'))],
    ['a decision that failed closed', () => ({ ...refuse('Deny'), failure: 'AuditUnavailable' })],
  ])(
    'answers 503 Authorization.Unavailable with Retry-After on %s, told apart from a denial: the handler does not run and nothing is written',
    async (_label, script) => {
      decisionServer.script = script as Script;
      const before = await widgetCount();
      const res = await request(app.getHttpServer())
        .post('/widgets')
        .set('Authorization', `Bearer ${token('alice')}`)
        .send({ id: 'w-unavailable' });
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('Authorization.Unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(handlerRuns.create).toBe(0);
      expect(await widgetCount()).toBe(before);
    },
  );

  it('answers 401 before asking for a decision when the token is missing', async () => {
    await request(app.getHttpServer()).post('/widgets').send({ id: 'w-anon' }).expect(401);
    expect(decisionServer.received).toHaveLength(0);
    expect(handlerRuns.create).toBe(0);
  });

  it('loads resource facts server-side through the declared loader, never from the body', async () => {
    await request(app.getHttpServer())
      .post('/widgets/w-acme-2/close')
      .set('Authorization', `Bearer ${token('alice')}`)
      .send({ status: 'Open', owner: 'alice' }) // self-declared facts, ignored
      .expect(201);
    const asked = decisionServer.received.at(-1)!;
    expect(asked.resource).toEqual({ module: 'inventory', resourceType: 'widget', resourceId: 'w-acme-2', owner: 'bob', status: 'Closed' });
    // Another tenant's row gives no facts, only the id.
    await request(app.getHttpServer())
      .post('/widgets/w-acme-1/close')
      .set('Authorization', `Bearer ${token('alice', 'other')}`)
      .expect(201);
    expect(decisionServer.received.at(-1)!.resource).toEqual({ module: 'inventory', resourceType: 'widget', resourceId: 'w-acme-1' });
  });

  it('attaches the DataScope on Permit, and the query helper keeps to it and to the tenant', async () => {
    decisionServer.script = () => permit({ kind: 'own', tenantId: 'acme', subject: 'alice' });
    const own = await request(app.getHttpServer())
      .get('/widgets')
      .set('Authorization', `Bearer ${token('alice')}`)
      .expect(200);
    expect(own.body).toContain('w-acme-1');
    expect(own.body).not.toContain('w-acme-2'); // bob's
    expect(own.body).not.toContain('w-other'); // another tenant's
    decisionServer.script = () => permit({ kind: 'tenant', tenantId: 'acme' });
    const tenant = await request(app.getHttpServer())
      .get('/widgets')
      .set('Authorization', `Bearer ${token('alice')}`)
      .expect(200);
    expect(tenant.body).toEqual(expect.arrayContaining(['w-acme-1', 'w-acme-2']));
    expect(tenant.body).not.toContain('w-other');
  });

  it('PermissionCheck asks for a further permission inside the handler, for the same caller, and a refusal is a 403', async () => {
    decisionServer.script = (req) => (req.action === AuthorizationAction.Approve ? refuse('Deny') : permit());
    const denied = await request(app.getHttpServer())
      .post('/widgets/w-acme-1/publish')
      .set('Authorization', `Bearer ${token('alice')}`)
      .expect(403);
    expect(denied.body.code).toBe('Authorization.Denied');
    expect(handlerRuns.publish).toBe(0);
    expect(decisionServer.received.map((r) => r.action)).toEqual([AuthorizationAction.Update, AuthorizationAction.Approve]);
    expect(decisionServer.received[1]).toMatchObject({
      caller: { subject: 'alice', tenantId: 'acme' },
      resource: { module: 'inventory', resourceType: 'widget', resourceId: 'w-acme-1' },
    });

    decisionServer.script = () => permit();
    await request(app.getHttpServer())
      .post('/widgets/w-acme-1/publish')
      .set('Authorization', `Bearer ${token('alice')}`)
      .expect(201, { published: 'w-acme-1' });
    expect(handlerRuns.publish).toBe(1);
  });

  it('denies a route that declares no permission (fail-closed default)', async () => {
    const res = await request(app.getHttpServer())
      .get('/widgets/undeclared')
      .set('Authorization', `Bearer ${token('alice')}`)
      .expect(403);
    expect(res.body.code).toBe('Authorization.Denied');
    expect(decisionServer.received).toHaveLength(0);
  });

  it('guards RPC handlers with the caller carried in the message', async () => {
    const caller: TrustedCaller = { kind: 'user', subject: 'alice', tenantId: 'acme', scopes: [], claimsDigest: 'x' };
    await expect(rpc.send('inventory.widget.count', { caller, payload: {} }, { service: 'guard-test' })).resolves.toEqual({ count: 42 });
    expect(decisionServer.received.at(-1)!.action).toBe(AuthorizationAction.View);
    decisionServer.script = () => refuse('Deny');
    await expect(rpc.send('inventory.widget.count', { caller, payload: {} }, { service: 'guard-test' })).rejects.toMatchObject({
      problem: { code: 'Authorization.Denied', status: 403 },
    });
    await expect(rpc.send('inventory.widget.count', { payload: {} }, { service: 'guard-test' })).rejects.toMatchObject({
      problem: { status: 401 },
    });
    decisionServer.script = () => Promise.reject(new Error('evaluator store down'));
    await expect(rpc.send('inventory.widget.count', { caller, payload: {} }, { service: 'guard-test' })).rejects.toMatchObject({
      problem: { code: 'Authorization.Unavailable', status: 503 },
    });
  });

  it('collects every permission the running code declares', () => {
    expect(
      app
        .get(PermissionCollector)
        .collect()
        .map((p) => p.code),
    ).toEqual(['inventory.widget.create', 'inventory.widget.update', 'inventory.widget.view']);
  });
});

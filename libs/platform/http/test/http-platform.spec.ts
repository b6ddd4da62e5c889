import { Body, Controller, Get, INestApplication, Module, Post, Query, Req } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, NestFactory, Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { IsInt, IsString, MaxLength, Min } from 'class-validator';
import request from 'supertest';
import { DomainError } from '@lp/contracts';
import {
  createValidationPipe,
  PageQuery,
  ProblemDetailsFilter,
  RequestTimeoutInterceptor,
  TimeoutPolicy,
  userPolicyThrottlerOptions,
  UserPolicyThrottlerGuard,
} from '../src';
import { FakeCallerGuard } from './fake-caller.guard';

class CreateThing {
  @IsString() @MaxLength(10) name!: string;
  @IsInt() @Min(1) size!: number;
}

class ThingConflict extends DomainError {
  constructor() {
    super('Thing.NameTaken', 409, 'A thing with this name exists.');
  }
}

@Controller('things')
class ThingsController {
  @Get()
  list(@Query() page: PageQuery) {
    return page;
  }
  @Post()
  create(@Body() body: CreateThing) {
    return body;
  }
  @Post('conflict')
  conflict(): never {
    throw new ThingConflict();
  }
  @Post('crash')
  crash(): never {
    throw new Error('connection to 10.0.0.5 refused: password=hunter2');
  }
  @Post('slow')
  @TimeoutPolicy('StandardCommand')
  async slow() {
    await new Promise((r) => setTimeout(r, 300));
    return { ok: true };
  }
  @Post('slow-workflow')
  @TimeoutPolicy('WorkflowCommand')
  async slowWorkflow() {
    await new Promise((r) => setTimeout(r, 300));
    return { ok: true };
  }
  @Post('whoami')
  whoami(@Req() req: { caller?: unknown }) {
    return { caller: req.caller ?? null };
  }
}

@Module({
  imports: [ThrottlerModule.forRoot(userPolicyThrottlerOptions({ limit: 2, ttlMs: 60_000 }))],
  controllers: [ThingsController],
  providers: [
    { provide: APP_GUARD, useClass: FakeCallerGuard },
    { provide: APP_GUARD, useClass: UserPolicyThrottlerGuard },
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    {
      provide: APP_INTERCEPTOR,
      inject: [Reflector],
      useFactory: (r: Reflector) => new RequestTimeoutInterceptor(r, { StandardCommand: 100, WorkflowCommand: 1_000 }),
    },
  ],
})
class TestModule {}

describe('http platform: problem details, validation, paging, userPolicy, timeouts', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await NestFactory.create(TestModule, { logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('renders a domain error as RFC 9457 problem+json with its stable code', async () => {
    const res = await request(app.getHttpServer()).post('/things/conflict').set('X-Test-Subject', 'u-conflict').expect(409);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 409, code: 'Thing.NameTaken', title: 'Conflict', detail: 'A thing with this name exists.' });
    expect(res.body.type).toBe('urn:problem:Thing.NameTaken');
  });

  it('hides everything internal on a 500', async () => {
    const res = await request(app.getHttpServer()).post('/things/crash').set('X-Test-Subject', 'u-crash').expect(500);
    expect(res.body).toMatchObject({ status: 500, code: 'InternalError' });
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|10\.0\.0\.5|at .*\.ts/);
  });

  it('rejects unknown fields and lists every invalid field', async () => {
    const res = await request(app.getHttpServer())
      .post('/things')
      .set('X-Test-Subject', 'u-validate')
      .send({ name: 'far too long a name', size: 0, colour: 'red' })
      .expect(400);
    expect(res.body.code).toBe('Validation.Failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(['colour', 'name', 'size']);
    expect(res.body.errors.colour[0]).toMatch(/should not exist/);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('names an unknown body or query field called %s (400, not 500)', async (key) => {
    const body = await request(app.getHttpServer())
      .post('/things')
      .set('X-Test-Subject', `u-prototype-${key}`)
      .set('Content-Type', 'application/json')
      .send(`{"name":"n","size":1,"${key}":{}}`)
      .expect(400);
    expect(body.body.code).toBe('Validation.Failed');
    expect(Object.keys(body.body.errors)).toEqual([key]);
    const query = await request(app.getHttpServer()).get(`/things?${key}=1`).expect(400);
    expect(Object.keys(query.body.errors)).toEqual([key]);
  });

  it('applies paging defaults and rejects out-of-range paging', async () => {
    expect((await request(app.getHttpServer()).get('/things').expect(200)).body).toEqual({ pageIndex: 0, pageSize: 20 });
    expect((await request(app.getHttpServer()).get('/things?pageIndex=2&pageSize=5').expect(200)).body).toEqual({ pageIndex: 2, pageSize: 5 });
    const res = await request(app.getHttpServer()).get('/things?pageSize=101&pageIndex=-1').expect(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['pageIndex', 'pageSize']);
  });

  it('limits writes per caller (userPolicy) and leaves reads and other callers alone', async () => {
    const server = app.getHttpServer();
    const first = await request(server).post('/things/whoami').set('X-Test-Subject', 'alice').expect(201);
    expect(first.headers['ratelimit-policy']).toMatch(/^"userPolicy";q=2;w=\d+$/);
    expect(first.headers['ratelimit']).toMatch(/^"userPolicy";r=1;t=\d+$/);
    await request(server).post('/things/whoami').set('X-Test-Subject', 'alice').expect(201);
    const limited = await request(server).post('/things/whoami').set('X-Test-Subject', 'alice').expect(429);
    expect(limited.body.code).toBe('RateLimited');
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    // The standard Retry-After (seconds), not the library's Retry-After-userPolicy.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['retry-after-userpolicy']).toBeUndefined();
    expect(Object.keys(limited.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
    await request(server).post('/things/whoami').set('X-Test-Subject', 'bob').expect(201);
    for (let i = 0; i < 4; i++) await request(server).get('/things').set('X-Test-Subject', 'alice').expect(200);
  });

  it('answers 504 RequestTimeout past the route policy, and WorkflowCommand allows longer', async () => {
    const res = await request(app.getHttpServer()).post('/things/slow').set('X-Test-Subject', 'u-slow').expect(504);
    expect(res.body.code).toBe('RequestTimeout');
    await request(app.getHttpServer()).post('/things/slow-workflow').set('X-Test-Subject', 'u-slow').expect(201);
  });

  it('answers an unknown route with a NotFound problem', async () => {
    const res = await request(app.getHttpServer()).get('/nope').expect(404);
    expect(res.body.code).toBe('NotFound');
  });
});

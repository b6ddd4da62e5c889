import { Controller, INestApplication, Module, Post } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import request from 'supertest';
import { ProblemDetailsFilter, UserPolicyThrottlerGuard } from '../src';

const header = (req: Record<string, unknown>, name: string) => String((req['headers'] as Record<string, string>)[name] ?? '');

@Controller('hits')
class HitsController {
  @Post()
  hit() {
    return { ok: true };
  }
}

/** Two policies on one route, as on /mcp: 3 per caller and 5 per tenant, per minute. */
@Module({
  imports: [
    ThrottlerModule.forRoot({
      throttlers: [
        { name: 'perCaller', limit: 3, ttl: 60_000, getTracker: (req) => `caller:${header(req, 'x-test-tenant')}:${header(req, 'x-test-subject')}` },
        { name: 'perTenant', limit: 5, ttl: 60_000, getTracker: (req) => `tenant:${header(req, 'x-test-tenant')}` },
      ],
      errorMessage: 'Too many requests.',
    }),
  ],
  controllers: [HitsController],
  providers: [
    { provide: APP_GUARD, useClass: UserPolicyThrottlerGuard },
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
  ],
})
class TwoPoliciesModule {}

/** What the `RateLimit` field says: the policy it names and the requests left. */
function advertised(res: { headers: Record<string, string> }): string {
  const [, policy, remaining] = /^"([^"]+)";r=(\d+);t=\d+$/.exec(res.headers['ratelimit'] ?? '') ?? [];
  return `${policy} r=${remaining}`;
}

describe('RateLimit fields with several policies: the one closest to biting', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(TwoPoliciesModule, { logger: false });
    await app.init();
  });
  afterAll(() => app.close());
  const hit = (subject: string, tenant: string) => request(app.getHttpServer()).post('/hits').set('X-Test-Subject', subject).set('X-Test-Tenant', tenant);

  it('names the per-caller policy while it has fewer requests left, down to r=0, and its 429 names it too', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(advertised(await hit('alice', 'acme').expect(201)));
    // The tenant policy (5) had 4, 3, 2 left: the library alone would have advertised it, the last counted.
    expect(seen).toEqual(['perCaller r=2', 'perCaller r=1', 'perCaller r=0']);
    const refused = await hit('alice', 'acme').expect(429);
    expect(advertised(refused)).toBe('perCaller r=0');
    expect(refused.headers['ratelimit-policy']).toBe('"perCaller";q=3;w=60');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ code: 'RateLimited', detail: 'Too many requests. Policy "perCaller": 3 requests per 60 s.' });
  });

  it('names the tenant policy once it has fewer left than the caller, down to r=0, and its 429 names it', async () => {
    // acme has used 3 of its 5 (alice's refused request was refused by her own policy first and not counted for the tenant).
    const first = await hit('bob', 'acme').expect(201);
    expect(advertised(first)).toBe('perTenant r=1');
    expect(first.headers['ratelimit-policy']).toBe('"perTenant";q=5;w=60');
    expect(advertised(await hit('bob', 'acme').expect(201))).toBe('perTenant r=0');
    const refused = await hit('bob', 'acme').expect(429);
    expect(advertised(refused)).toBe('perTenant r=0');
    expect(refused.headers['ratelimit-policy']).toBe('"perTenant";q=5;w=60');
    expect(refused.body.detail).toContain('Policy "perTenant"');
  });

  it('another tenant starts afresh, named by its caller policy', async () => {
    expect(advertised(await hit('carol', 'globex').expect(201))).toBe('perCaller r=2');
  });
});

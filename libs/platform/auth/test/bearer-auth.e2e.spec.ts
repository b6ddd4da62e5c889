import { randomBytes } from 'node:crypto';
import { INestApplication, Module } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import request from 'supertest';
import { AuthenticationFailure, AuthModule, JwtVerificationOptions, signAccessToken } from '../src';
import { startProbeApp } from './probe-app';

const signing = { secret: 'e2e-secret-'.padEnd(40, 'x'), issuer: 'https://lp.test', audience: 'lp-api' };
const startApp = (verification: JwtVerificationOptions): Promise<INestApplication> => startProbeApp(AuthModule.forRoot(verification));

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const now = (): number => Math.floor(Date.now() / 1000);
const validClaims = { sub: 'alice', tenant_id: 'acme', iss: signing.issuer, aud: signing.audience, exp: now() + 3600 };

describe('bearer authentication over HTTP (HS256)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp(signing);
  });

  afterAll(async () => {
    await app.close();
  });

  it('accepts a valid HS256 token and hands the handler the user caller', async () => {
    const token = signAccessToken({ sub: 'alice', tenantId: 'acme', scopes: ['cases:read'] }, signing);
    const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toMatchObject({ kind: 'user', subject: 'alice', tenantId: 'acme', scopes: ['cases:read'] });
    expect(res.body.claimsDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.expiresAt).toBeGreaterThan(now());
  });

  it('hands the handler an application caller for a client-credentials style token', async () => {
    const token = signAccessToken({ clientId: 'reporting', tenantId: 'acme', scopes: ['b', 'a'] }, signing);
    const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toMatchObject({ kind: 'application', subject: 'reporting', clientId: 'reporting', tenantId: 'acme', scopes: ['a', 'b'] });
  });

  it('hands the handler a delegated caller for a token with act', async () => {
    const token = signAccessToken({ sub: 'alice', tenantId: 'acme', actor: 'assistant', grantId: 'g-1' }, signing);
    const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toMatchObject({ kind: 'delegated', subject: 'alice', actor: 'assistant', grantId: 'g-1', tenantId: 'acme' });
  });

  it('serves a @Public() route without a token', async () => {
    await request(app.getHttpServer()).get('/health').expect(200, { status: 'ok' });
  });

  it('serves every route of a @Public() controller without a token', async () => {
    await request(app.getHttpServer()).get('/metrics').expect(200, 'up 1');
  });

  it('answers 401, not an undefined caller, when a @Public() handler asks for @Caller() without a token', async () => {
    const res = await request(app.getHttpServer()).get('/public-whoami').expect(401);
    expect(res.body).toMatchObject({ code: 'Authentication.Required' });
  });

  const refusals: Array<[string, () => string | undefined, string]> = [
    ['no token', () => undefined, AuthenticationFailure.noToken],
    ['a malformed token', () => 'Bearer not-a-jwt', AuthenticationFailure.malformed],
    [
      'an unsigned token (alg none)',
      () => `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...validClaims, exp: now() + 60 })}.`,
      AuthenticationFailure.unsigned,
    ],
    ['a token signed with another secret', () => `Bearer ${sign(validClaims, 'another-secret-'.padEnd(40, 'y'))}`, AuthenticationFailure.badSignature],
    ['an expired token', () => `Bearer ${sign({ ...validClaims, exp: now() - 60 }, signing.secret)}`, AuthenticationFailure.expired],
    ['a token from another issuer', () => `Bearer ${sign({ ...validClaims, iss: 'https://evil.test' }, signing.secret)}`, AuthenticationFailure.wrongIssuer],
    ['a token for another audience', () => `Bearer ${sign({ ...validClaims, aud: 'other-api' }, signing.secret)}`, AuthenticationFailure.wrongAudience],
    [
      'a token without tenant_id',
      () => `Bearer ${sign({ sub: 'alice', iss: signing.issuer, aud: signing.audience, exp: now() + 60 }, signing.secret)}`,
      AuthenticationFailure.noTenant,
    ],
    [
      'a token without exp (never expires)',
      () => `Bearer ${sign({ sub: 'alice', tenant_id: 'acme', iss: signing.issuer, aud: signing.audience }, signing.secret)}`,
      AuthenticationFailure.noExpiry,
    ],
    ['a token expiring in the year 3000', () => `Bearer ${sign({ ...validClaims, exp: 32503680000 }, signing.secret)}`, AuthenticationFailure.tooLongLived],
    [
      'a token living 24 h and a minute',
      () => `Bearer ${sign({ ...validClaims, iat: now(), exp: now() + 86460 }, signing.secret)}`,
      AuthenticationFailure.tooLongLived,
    ],
    [
      'a token issued a day in the future',
      () => `Bearer ${sign({ ...validClaims, iat: now() + 86400, exp: now() + 86400 + 600 }, signing.secret)}`,
      AuthenticationFailure.issuedInFuture,
    ],
    [
      'a token with an unknown critical header extension',
      () => `Bearer ${sign(validClaims, signing.secret, { header: { alg: 'HS256', crit: ['urn:example:must-understand'] } as never })}`,
      AuthenticationFailure.unknownCritical,
    ],
    [
      'a token with an algorithm that is not pinned',
      () => `Bearer ${sign(validClaims, signing.secret, { algorithm: 'HS512' })}`,
      AuthenticationFailure.unsupportedAlgorithm,
    ],
    ['a Basic authorization header', () => 'Basic YWxpY2U6c2VjcmV0', AuthenticationFailure.noToken],
  ];

  it.each(refusals)('refuses %s with 401 problem+json Authentication.Required', async (_case, header, detail) => {
    const authorization = header();
    const call = request(app.getHttpServer()).get('/whoami');
    const res = await (authorization ? call.set('Authorization', authorization) : call);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ status: 401, code: 'Authentication.Required', detail });
    expect(res.body.type).toEqual(expect.any(String));
    expect(res.body.title).toEqual(expect.any(String));
    if (authorization) {
      const token = authorization.split(' ')[1];
      expect(res.text).not.toContain(token);
    }
  });

  it('takes its options from a factory with forRootAsync', async () => {
    const SETTINGS = Symbol('SETTINGS');
    @Module({ providers: [{ provide: SETTINGS, useValue: signing }], exports: [SETTINGS] })
    class SettingsModule {}
    const configured = await startProbeApp(
      AuthModule.forRootAsync({ imports: [SettingsModule], inject: [SETTINGS], useFactory: (settings: JwtVerificationOptions) => settings }),
    );
    try {
      const token = signAccessToken({ sub: 'alice', tenantId: 'acme' }, signing);
      await request(configured.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(200);
      await request(configured.getHttpServer()).get('/whoami').expect(401);
    } finally {
      await configured.close();
    }
  });

  it('refuses to start with incomplete options', async () => {
    await expect(startApp({ issuer: signing.issuer, audience: signing.audience })).rejects.toThrow('a secret (HS256) or a JWKS URI');
  });

  it('keeps each application on its own options when several run in one process', async () => {
    const other = await startApp({ ...signing, secret: randomBytes(32).toString('base64url') });
    try {
      const token = signAccessToken({ sub: 'alice', tenantId: 'acme' }, signing);
      await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(200);
      const res = await request(other.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.body.detail).toBe(AuthenticationFailure.badSignature);
    } finally {
      await other.close();
    }
  });
});

import { decode, verify, type JwtPayload } from 'jsonwebtoken';
import { signAccessToken } from './access-token.issuer';
import { callerFromClaims } from './caller-from-claims';

const signing = { secret: 'z'.repeat(32), issuer: 'https://lp.test', audience: 'lp-api' };

function verified(token: string): JwtPayload {
  return verify(token, signing.secret, { algorithms: ['HS256'], issuer: signing.issuer, audience: signing.audience }) as JwtPayload;
}

describe('signAccessToken', () => {
  it('issues an HS256 token with issuer, audience, tenant, a one-hour default lifetime and a jti', () => {
    const token = signAccessToken({ sub: 'alice', tenantId: 't1' }, signing);
    expect(decode(token, { complete: true })?.header.alg).toBe('HS256');
    const claims = verified(token);
    expect(claims).toMatchObject({ sub: 'alice', tenant_id: 't1', iss: signing.issuer, aud: signing.audience });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims).not.toHaveProperty('client_id');
    expect(claims).not.toHaveProperty('scope');
  });

  it('honours ttlSeconds', () => {
    const claims = verified(signAccessToken({ sub: 'alice', tenantId: 't1', ttlSeconds: 90 }, signing));
    expect(claims.exp! - claims.iat!).toBe(90);
  });

  it('issues an application token (sub = client_id, space-separated scope) that maps to an application caller', () => {
    const claims = verified(signAccessToken({ clientId: 'reporting', tenantId: 't1', scopes: ['b', 'a'] }, signing));
    expect(claims).toMatchObject({ sub: 'reporting', client_id: 'reporting', scope: 'b a' });
    expect(callerFromClaims(claims)).toMatchObject({ kind: 'application', subject: 'reporting', scopes: ['a', 'b'] });
  });

  it('issues a delegated token with act and grant_id that maps to a delegated caller', () => {
    const claims = verified(signAccessToken({ sub: 'alice', tenantId: 't1', actor: 'assistant', grantId: 'g1' }, signing));
    expect(claims).toMatchObject({ act: { sub: 'assistant' }, grant_id: 'g1' });
    expect(callerFromClaims(claims)).toMatchObject({ kind: 'delegated', subject: 'alice', actor: 'assistant', grantId: 'g1' });
  });

  it.each([
    ['a short secret', { sub: 'alice', tenantId: 't1' }, { ...signing, secret: 'short' }, '32 bytes'],
    ['no tenant', { sub: 'alice', tenantId: '' }, signing, 'tenant'],
    ['a zero ttl', { sub: 'alice', tenantId: 't1', ttlSeconds: 0 }, signing, 'ttlSeconds'],
    ['a fractional ttl', { sub: 'alice', tenantId: 't1', ttlSeconds: 1.5 }, signing, 'ttlSeconds'],
  ])('refuses %s', (_case, subject, options, message) => {
    expect(() => signAccessToken(subject, options)).toThrow(message);
  });
});

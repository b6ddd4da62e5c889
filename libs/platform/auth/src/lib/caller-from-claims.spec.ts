import { AuthenticationError } from '@lp/contracts';
import { AuthenticationFailure } from './auth.errors';
import { callerFromClaims } from './caller-from-claims';
import { claimsDigest } from './claims-digest';

describe('callerFromClaims', () => {
  it('maps a user token to a user caller', () => {
    const claims = { sub: 'alice', tenant_id: 't1', scope: 'b a', exp: 1_900_000_000, iat: 1, jti: 'x' };
    expect(callerFromClaims(claims)).toEqual({
      kind: 'user',
      subject: 'alice',
      tenantId: 't1',
      scopes: ['a', 'b'],
      claimsDigest: claimsDigest(claims),
      expiresAt: 1_900_000_000,
    });
  });

  it('maps a client-credentials token (client_id, sub = client_id) to an application caller with its scopes', () => {
    const caller = callerFromClaims({ sub: 'reporting', client_id: 'reporting', tenant_id: 't1', scope: 'cases:read cases:write' });
    expect(caller).toMatchObject({
      kind: 'application',
      subject: 'reporting',
      clientId: 'reporting',
      tenantId: 't1',
      scopes: ['cases:read', 'cases:write'],
    });
  });

  it('maps a token with client_id and no sub to an application caller', () => {
    expect(callerFromClaims({ client_id: 'reporting', tenant_id: 't1' })).toMatchObject({
      kind: 'application',
      subject: 'reporting',
      clientId: 'reporting',
      scopes: [],
    });
  });

  it('keeps a user a user when the token was issued to a client (RFC 9068 puts client_id on every token)', () => {
    expect(callerFromClaims({ sub: 'alice', client_id: 'portal', tenant_id: 't1' })).toMatchObject({
      kind: 'user',
      subject: 'alice',
      clientId: 'portal',
    });
  });

  it('maps an RFC 8693 act claim to a delegated caller, decided for sub and acted by act.sub', () => {
    const caller = callerFromClaims({ sub: 'alice', act: { sub: 'assistant', act: { sub: 'gateway' } }, grant_id: 'g-7', tenant_id: 't1' });
    expect(caller).toMatchObject({ kind: 'delegated', subject: 'alice', actor: 'assistant', grantId: 'g-7', tenantId: 't1' });
  });

  it('omits grantId on a delegated caller without grant_id', () => {
    const caller = callerFromClaims({ sub: 'alice', act: { sub: 'assistant' }, tenant_id: 't1' });
    expect(caller.kind).toBe('delegated');
    expect(caller).not.toHaveProperty('grantId');
  });

  it.each([
    ['no tenant_id', { sub: 'alice' }, AuthenticationFailure.noTenant],
    ['an empty tenant_id', { sub: 'alice', tenant_id: '' }, AuthenticationFailure.noTenant],
    ['a non-string tenant_id', { sub: 'alice', tenant_id: 42 }, AuthenticationFailure.noTenant],
    // Each authenticated before (the attack run's tokens, signed with the real key).
    ['tenant_id Default', { sub: 'alice', tenant_id: 'Default' }, AuthenticationFailure.badTenant],
    ['tenant_id "default "', { sub: 'alice', tenant_id: 'default ' }, AuthenticationFailure.badTenant],
    ['tenant_id ../default', { sub: 'alice', tenant_id: '../default' }, AuthenticationFailure.badTenant],
    ['tenant_id default\\u0000', { sub: 'alice', tenant_id: 'default\u0000' }, AuthenticationFailure.badTenant],
    ['a tenant_id of 300 characters', { sub: 'alice', tenant_id: 'd'.repeat(300) }, AuthenticationFailure.badTenant],
    ['a tenant_id of 65 characters', { sub: 'alice', tenant_id: 'd'.repeat(65) }, AuthenticationFailure.badTenant],
    ['neither sub nor client_id', { tenant_id: 't1' }, AuthenticationFailure.noSubject],
    ['an act claim without sub', { sub: 'alice', tenant_id: 't1', act: { client_id: 'x' } }, AuthenticationFailure.badActor],
    ['an act claim that is a string', { sub: 'alice', tenant_id: 't1', act: 'assistant' }, AuthenticationFailure.badActor],
    ['a nested act without sub', { sub: 'alice', tenant_id: 't1', act: { sub: 'a', act: {} } }, AuthenticationFailure.badActor],
  ])('rejects a token with %s', (_case, claims, message) => {
    expect(() => callerFromClaims(claims)).toThrow(AuthenticationError);
    expect(() => callerFromClaims(claims)).toThrow(message);
  });
});

import { claimsDigest } from './claims-digest';

const base = {
  sub: 'alice',
  tenant_id: 't1',
  client_id: 'portal',
  scope: 'a b',
  act: { sub: 'assistant' },
  grant_id: 'g1',
  roles: ['editor'],
  iat: 1_700_000_000,
  exp: 1_700_003_600,
  jti: 'one',
};

describe('claimsDigest', () => {
  it('is a sha256 hex digest', () => {
    expect(claimsDigest(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores iat, exp, jti, iss, aud: a refreshed token for the same grant digests alike', () => {
    const refreshed = { ...base, iat: 1_800_000_000, exp: 1_800_003_600, jti: 'two', iss: 'other', aud: 'x' };
    expect(claimsDigest(refreshed)).toBe(claimsDigest(base));
  });

  it('normalises scope and roles order and duplicates', () => {
    expect(claimsDigest({ ...base, scope: 'b a a', roles: ['editor', 'editor'] })).toBe(claimsDigest(base));
    expect(claimsDigest({ ...base, scope: ['b', 'a'] })).toBe(claimsDigest(base));
  });

  it.each([
    ['sub', { sub: 'bob' }],
    ['tenant_id', { tenant_id: 't2' }],
    ['client_id', { client_id: 'other-client' }],
    ['scope', { scope: 'a b c' }],
    ['act.sub', { act: { sub: 'someone-else' } }],
    ['a nested actor', { act: { sub: 'assistant', act: { sub: 'gateway' } } }],
    ['grant_id', { grant_id: 'g2' }],
    ['roles', { roles: ['editor', 'admin'] }],
  ])('changes when %s changes', (_claim, change) => {
    expect(claimsDigest({ ...base, ...change })).not.toBe(claimsDigest(base));
  });

  it('tells an absent claim from an empty one only where it matters: no scope equals empty scope', () => {
    const { scope: _scope, ...withoutScope } = base;
    expect(claimsDigest(withoutScope)).toBe(claimsDigest({ ...base, scope: '' }));
    const { grant_id: _grant, ...withoutGrant } = base;
    expect(claimsDigest(withoutGrant)).not.toBe(claimsDigest(base));
  });
});

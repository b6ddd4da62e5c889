import { acceptedAlgorithms, assertJwtVerificationOptions } from './jwt-verification-options';

const secret = 'k'.repeat(32);

describe('JWT verification options', () => {
  it('pins HS256 alone for a secret and the asymmetric list for a JWKS', () => {
    expect(acceptedAlgorithms({ secret, issuer: 'i', audience: 'a' })).toEqual(['HS256']);
    expect(acceptedAlgorithms({ jwksUri: 'https://idp/jwks', issuer: 'i', audience: 'a' })).toEqual(['RS256', 'ES256', 'PS256']);
  });

  it('accepts a complete configuration of either kind', () => {
    expect(() => assertJwtVerificationOptions({ secret, issuer: 'i', audience: 'a' })).not.toThrow();
    expect(() => assertJwtVerificationOptions({ jwksUri: 'https://idp/jwks', issuer: 'i', audience: 'a' })).not.toThrow();
  });

  it.each([
    ['neither key source', { issuer: 'i', audience: 'a' }, 'a secret (HS256) or a JWKS URI'],
    ['both key sources', { secret, jwksUri: 'https://idp/jwks', issuer: 'i', audience: 'a' }, 'not both'],
    ['a short secret', { secret: 'short', issuer: 'i', audience: 'a' }, 'at least 32 bytes'],
    ['a JWKS URI that is not a URL', { jwksUri: 'idp/jwks', issuer: 'i', audience: 'a' }, 'http(s) URL'],
    ['no issuer', { secret, issuer: '', audience: 'a' }, 'issuer is required'],
    ['no audience', { secret, issuer: 'i', audience: '' }, 'audience is required'],
  ])('refuses %s', (_case, options, message) => {
    expect(() => assertJwtVerificationOptions(options)).toThrow(message);
  });

  it('lists every problem at once', () => {
    expect(() => assertJwtVerificationOptions({ secret: 'short', issuer: '', audience: '' })).toThrow(/32 bytes.*issuer is required.*audience is required/);
  });
});

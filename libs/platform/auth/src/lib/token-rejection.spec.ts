import { AuthenticationError } from '@lp/contracts';
import { sign, verify, type VerifyOptions } from 'jsonwebtoken';
import { runInNewContext } from 'node:vm';
import { AuthenticationFailure, IdentityProviderUnavailableError } from './auth.errors';
import { rejectionFor, screenToken } from './token-rejection';

const secret = 's'.repeat(32);
const options: VerifyOptions = { algorithms: ['HS256'], issuer: 'iss', audience: 'aud' };
const claims = { sub: 'alice', tenant_id: 't1' };

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** What jsonwebtoken (and so passport-jwt) fails with for this token. */
function failureOf(token: string, key: string | Buffer = secret): unknown {
  try {
    verify(token, key, options);
  } catch (error) {
    return error;
  }
  throw new Error('expected the token to be refused');
}

describe('screenToken', () => {
  it('lets a well-formed token with an accepted algorithm through to verification', () => {
    expect(screenToken(sign(claims, secret), ['HS256'])).toBeUndefined();
  });

  it.each([
    ['not a JWT', 'abc', AuthenticationFailure.malformed],
    ['two segments', 'a.b', AuthenticationFailure.malformed],
    ['a header that is not JSON', `${Buffer.from('{').toString('base64url')}.${b64url(claims)}.sig`, AuthenticationFailure.malformed],
    ['a header without alg', `${b64url({ typ: 'JWT' })}.${b64url(claims)}.sig`, AuthenticationFailure.malformed],
    ['alg none', `${b64url({ alg: 'none' })}.${b64url(claims)}.`, AuthenticationFailure.unsigned],
    ['alg NONE', `${b64url({ alg: 'NONE' })}.${b64url(claims)}.`, AuthenticationFailure.unsigned],
    ['an algorithm not pinned', sign(claims, secret, { algorithm: 'HS512' }), AuthenticationFailure.unsupportedAlgorithm],
  ])('refuses %s', (_case, token, message) => {
    const refusal = screenToken(token, ['HS256']);
    expect(refusal).toBeInstanceOf(AuthenticationError);
    expect(refusal?.message).toBe(message);
  });

  it('refuses an HS256 token where only asymmetric keys are accepted (no RS/HS confusion)', () => {
    expect(screenToken(sign(claims, secret), ['RS256', 'ES256', 'PS256'])?.message).toBe(AuthenticationFailure.unsupportedAlgorithm);
  });
});

describe('rejectionFor', () => {
  const valid = { ...claims, iss: 'iss', aud: 'aud' };

  it.each([
    ['an expired token', () => failureOf(sign({ ...valid, exp: Math.floor(Date.now() / 1000) - 60 }, secret)), AuthenticationFailure.expired],
    ['a token not valid yet', () => failureOf(sign({ ...valid, nbf: Math.floor(Date.now() / 1000) + 600 }, secret)), AuthenticationFailure.notYetValid],
    ['a wrong signature', () => failureOf(sign(valid, 'x'.repeat(32))), AuthenticationFailure.badSignature],
    ['a wrong issuer', () => failureOf(sign({ ...valid, iss: 'evil' }, secret)), AuthenticationFailure.wrongIssuer],
    ['a wrong audience', () => failureOf(sign({ ...valid, aud: 'other' }, secret)), AuthenticationFailure.wrongAudience],
    ['a malformed token', () => failureOf('abc'), AuthenticationFailure.malformed],
    ['an unsigned token', () => failureOf(`${b64url({ alg: 'none' })}.${b64url(valid)}.`), AuthenticationFailure.unsigned],
    ['a refused algorithm', () => failureOf(sign(valid, secret, { algorithm: 'HS384' })), AuthenticationFailure.unsupportedAlgorithm],
  ])('explains %s', (_case, failure, message) => {
    const rejection = rejectionFor(failure());
    expect(rejection).toBeInstanceOf(AuthenticationError);
    expect(rejection.message).toBe(message);
  });

  it('explains a token whose kid the issuer does not publish', () => {
    const unknownKid = Object.assign(new Error("Unable to find a signing key that matches 'k9'"), { name: 'SigningKeyNotFoundError' });
    expect(rejectionFor(unknownKid).message).toBe(AuthenticationFailure.unknownKey);
    const rateLimited = Object.assign(new Error('Too many requests to the JWKS endpoint'), { name: 'JwksRateLimitError' });
    expect(rejectionFor(rateLimited).message).toBe(AuthenticationFailure.unknownKey);
  });

  it('explains a signed token for which no key came back', () => {
    expect(rejectionFor(failureOf(sign(valid, secret), '')).message).toBe(AuthenticationFailure.unknownKey);
  });

  it('makes an unreachable issuer a 503, not the caller’s 401', () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { isEndpointUnavailable: true });
    const rejection = rejectionFor(outage);
    expect(rejection).toBeInstanceOf(IdentityProviderUnavailableError);
    expect(rejection.status).toBe(503);
  });

  it('recognises an outage error raised in another realm (socket errors under a VM context)', () => {
    const foreign: unknown = runInNewContext("Object.assign(new Error('connect ECONNREFUSED'), { isEndpointUnavailable: true })");
    expect(foreign instanceof Error).toBe(false);
    expect(rejectionFor(foreign)).toBeInstanceOf(IdentityProviderUnavailableError);
  });

  it('passes an AuthenticationError from the claims mapping through unchanged', () => {
    const noTenant = new AuthenticationError(AuthenticationFailure.noTenant);
    expect(rejectionFor(noTenant)).toBe(noTenant);
  });

  it('never echoes the token in any message', () => {
    const token = sign({ ...valid, exp: 1 }, secret);
    const rejection = rejectionFor(failureOf(token));
    expect(rejection.message).not.toContain(token);
    expect(rejection.message).not.toContain(token.split('.')[1]);
  });
});

import { AuthenticationError, DomainError } from '@lp/contracts';
import { decode, type Algorithm } from 'jsonwebtoken';
import { types } from 'node:util';
import { authenticationFailure, IdentityProviderUnavailableError } from './auth.errors';

/**
 * Checks the token's shape and header before any key is looked up, so a malformed token or a
 * refused algorithm gets its own message and never costs a JWKS fetch. jsonwebtoken enforces the
 * same algorithm list again during verification; this is for clarity, not the only line of defence.
 */
export function screenToken(token: string, accepted: readonly Algorithm[]): AuthenticationError | undefined {
  let decoded: ReturnType<typeof decode>;
  try {
    decoded = decode(token, { complete: true });
  } catch {
    decoded = null;
  }
  if (!decoded || typeof decoded.payload !== 'object' || typeof decoded.header?.alg !== 'string') {
    return authenticationFailure('malformed');
  }
  // RFC 7515 §4.1.11: a recipient must refuse a token whose `crit` lists extensions it does not
  // understand; this service understands none.
  if ((decoded.header as { crit?: unknown }).crit !== undefined) return authenticationFailure('unknownCritical');
  const alg = decoded.header.alg;
  if (alg.toLowerCase() === 'none') return authenticationFailure('unsigned');
  if (!(accepted as readonly string[]).includes(alg)) return authenticationFailure('unsupportedAlgorithm');
  return undefined;
}

/**
 * Turns whatever passport-jwt failed with (jsonwebtoken's errors, jwks-rsa's errors, or our own
 * AuthenticationError from the claims mapping) into the error the client sees. Matching is on
 * error names and jsonwebtoken's fixed messages, which are its documented contract.
 */
export function rejectionFor(failure: unknown): DomainError {
  if (failure instanceof DomainError) return failure;
  if (!isError(failure)) return authenticationFailure('unverifiable');

  switch (failure.name) {
    case 'TokenExpiredError':
      return authenticationFailure('expired');
    case 'NotBeforeError':
      return authenticationFailure('notYetValid');
    // Unknown kid (also when an unknown-kid flood trips the refetch rate limit): the caller's
    // token is at fault, not the issuer.
    case 'SigningKeyNotFoundError':
    case 'JwksRateLimitError':
      return authenticationFailure('unknownKey');
    case 'JsonWebTokenError':
      return jsonWebTokenRejection(failure.message);
  }
  if (isJwksOutage(failure)) return new IdentityProviderUnavailableError();
  return authenticationFailure('unverifiable');
}

function jsonWebTokenRejection(message: string): AuthenticationError {
  if (message === 'invalid signature') return authenticationFailure('badSignature');
  if (message === 'jwt signature is required') return authenticationFailure('unsigned');
  if (message === 'invalid algorithm') return authenticationFailure('unsupportedAlgorithm');
  if (message.startsWith('jwt audience invalid')) return authenticationFailure('wrongAudience');
  if (message.startsWith('jwt issuer invalid')) return authenticationFailure('wrongIssuer');
  if (message === 'jwt malformed' || message === 'invalid token') return authenticationFailure('malformed');
  // No key came back for the token's kid.
  if (message === 'secret or public key must be provided') return authenticationFailure('unknownKey');
  return authenticationFailure('unverifiable');
}

/** jwks-rsa marks fetch failures `isEndpointUnavailable`; a `JwksError` is an unusable key set. */
function isJwksOutage(error: Error): boolean {
  return (error as { isEndpointUnavailable?: boolean }).isEndpointUnavailable === true || error.name === 'JwksError';
}

/** Socket errors may come from another realm (a VM context, Jest), where `instanceof Error` is false. */
function isError(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

/**
 * Lifetime checks jsonwebtoken does not make (it accepts a token without `exp`, and any `exp`):
 * `exp` is required, the lifetime from `iat` (else `nbf`, else now) may not exceed `maxTtlSeconds`,
 * and `iat` may not lie in the future beyond the clock tolerance. Run on verified claims only.
 */
export function lifetimeRejection(
  claims: { exp?: unknown; iat?: unknown; nbf?: unknown },
  limits: { maxTtlSeconds: number; clockToleranceSeconds: number; nowSeconds: number },
): AuthenticationError | undefined {
  const { maxTtlSeconds, clockToleranceSeconds, nowSeconds } = limits;
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return authenticationFailure('noExpiry');
  const iat = typeof claims.iat === 'number' && Number.isFinite(claims.iat) ? claims.iat : undefined;
  const nbf = typeof claims.nbf === 'number' && Number.isFinite(claims.nbf) ? claims.nbf : undefined;
  if (iat !== undefined && iat > nowSeconds + clockToleranceSeconds) return authenticationFailure('issuedInFuture');
  const start = iat ?? nbf ?? nowSeconds;
  if (claims.exp - start > maxTtlSeconds) return authenticationFailure('tooLongLived');
  return undefined;
}

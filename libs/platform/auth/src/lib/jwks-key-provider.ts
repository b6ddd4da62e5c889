import type { SecretOrKeyProvider } from 'passport-jwt';

/** Keys rotate rarely; ten minutes bounds how long a revoked key stays trusted. */
const KEY_CACHE_MAX_AGE_MS = 10 * 60_000;
/** Bounds the JWKS refetches a flood of tokens with unknown `kid`s can cause. */
const JWKS_REQUESTS_PER_MINUTE = 10;
const JWKS_TIMEOUT_MS = 5_000;

/**
 * Resolves the verification key for a token from the issuer's JWKS by `kid`, cached and rate
 * limited. jwks-rsa is imported only here and only when a JWKS URI is configured: it pulls in
 * `jose`, which is ESM-only, and HS256-only processes have no reason to load it.
 */
export async function jwksKeyProvider(jwksUri: string): Promise<SecretOrKeyProvider> {
  const { passportJwtSecret } = await import('jwks-rsa');
  return passportJwtSecret({
    jwksUri,
    cache: true,
    cacheMaxEntries: 10,
    cacheMaxAge: KEY_CACHE_MAX_AGE_MS,
    rateLimit: true,
    jwksRequestsPerMinute: JWKS_REQUESTS_PER_MINUTE,
    timeout: JWKS_TIMEOUT_MS,
    // The default swallows "no such kid" into a null key; passing every error on lets the guard
    // tell an unknown key (401) from an unreachable issuer (503).
    handleSigningKeyError: (error, done) => done(error),
  });
}

import type { Algorithm } from 'jsonwebtoken';

/**
 * How bearer tokens are verified: HS256 with a shared `secret` (embedded profile, `JWT_SECRET`),
 * or asymmetric keys published by an OIDC issuer (`jwksUri`, `JWT_JWKS_URI`). Exactly one of the two.
 */
export interface JwtVerificationOptions {
  secret?: string;
  jwksUri?: string;
  issuer: string;
  audience: string;
  /**
   * Longest accepted token lifetime, from `iat` (or `nbf`, or now when neither is set) to `exp`.
   * Default `DEFAULT_MAX_TOKEN_TTL_SECONDS`. A token without `exp` is refused whatever this says.
   */
  maxTtlSeconds?: number;
}

/** 24 h: a bearer token is a key; one that never expires cannot be taken back. */
export const DEFAULT_MAX_TOKEN_TTL_SECONDS = 24 * 3600;

/** The only algorithm a shared secret may verify. */
export const SYMMETRIC_ALGORITHMS: readonly Algorithm[] = ['HS256'];

/** What an issuer's JWKS may sign with. Never HS*: a public key must not double as an HMAC secret. */
export const ASYMMETRIC_ALGORITHMS: readonly Algorithm[] = ['RS256', 'ES256', 'PS256'];

/** RFC 7518 §3.2: an HS256 key must be at least as long as the hash output (256 bits). */
export const MIN_SECRET_BYTES = 32;

/**
 * The algorithms pinned for these options. Pinning by configuration, not by the token's header,
 * is what stops `alg: none` and RS/HS confusion.
 */
export function acceptedAlgorithms(options: JwtVerificationOptions): readonly Algorithm[] {
  return options.secret ? SYMMETRIC_ALGORITHMS : ASYMMETRIC_ALGORITHMS;
}

export function isSecretLongEnough(secret: string): boolean {
  return Buffer.byteLength(secret, 'utf8') >= MIN_SECRET_BYTES;
}

/** Fails at boot with every problem listed, so a misconfigured service never starts half-secured. */
export function assertJwtVerificationOptions(options: JwtVerificationOptions): void {
  const problems: string[] = [];
  if (options.secret && options.jwksUri) {
    problems.push('set either a secret or a JWKS URI, not both');
  } else if (!options.secret && !options.jwksUri) {
    problems.push('a secret (HS256) or a JWKS URI (issuer keys) is required');
  }
  if (options.secret && !isSecretLongEnough(options.secret)) {
    problems.push(`the secret must be at least ${MIN_SECRET_BYTES} bytes for HS256`);
  }
  if (options.jwksUri && !isHttpUrl(options.jwksUri)) {
    problems.push('the JWKS URI must be an http(s) URL');
  }
  if (options.maxTtlSeconds !== undefined && (!Number.isInteger(options.maxTtlSeconds) || options.maxTtlSeconds <= 0)) {
    problems.push('the maximum token lifetime must be a positive number of seconds');
  }
  if (!options.issuer) problems.push('the expected issuer is required');
  if (!options.audience) problems.push('the expected audience is required');
  if (problems.length > 0) {
    throw new Error(`Invalid JWT verification options: ${problems.join('; ')}.`);
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

import { randomUUID } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import { isSecretLongEnough, MIN_SECRET_BYTES } from './jwt-verification-options';

/** Who the token is for. An application token names `clientId` and may omit `sub` (it becomes the client id). */
export type AccessTokenSubject = ({ sub: string; clientId?: string } | { sub?: string; clientId: string }) & {
  tenantId: string;
  scopes?: string[];
  /** RFC 8693 actor: the subject acting on behalf of `sub`. */
  actor?: string;
  grantId?: string;
  /** Default one hour. */
  ttlSeconds?: number;
};

export interface AccessTokenSigningOptions {
  secret: string;
  issuer: string;
  audience: string;
}

const DEFAULT_TTL_SECONDS = 3600;

/**
 * Issues an HS256 access token the way `AuthModule` verifies it: for the embedded profile
 * (`npm run -s token`, the admin token printed at start) and for tests. Claim conventions follow
 * RFC 9068, so an application token has `sub` = `client_id`, like a client-credentials token from
 * a real issuer.
 */
export function signAccessToken(subject: AccessTokenSubject, signing: AccessTokenSigningOptions): string {
  const sub = subject.sub ?? subject.clientId;
  const ttlSeconds = subject.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!sub) throw new Error('An access token needs a subject or a client id.');
  if (!subject.tenantId) throw new Error('An access token needs a tenant id.');
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new Error('ttlSeconds must be a positive integer.');
  if (!isSecretLongEnough(signing.secret)) throw new Error(`JWT secret must be at least ${MIN_SECRET_BYTES} bytes for HS256.`);

  const claims = {
    sub,
    tenant_id: subject.tenantId,
    ...(subject.clientId ? { client_id: subject.clientId } : {}),
    ...(subject.scopes?.length ? { scope: subject.scopes.join(' ') } : {}),
    ...(subject.actor ? { act: { sub: subject.actor } } : {}),
    ...(subject.grantId ? { grant_id: subject.grantId } : {}),
  };
  return sign(claims, signing.secret, {
    algorithm: 'HS256',
    issuer: signing.issuer,
    audience: signing.audience,
    expiresIn: ttlSeconds,
    jwtid: randomUUID(),
  });
}

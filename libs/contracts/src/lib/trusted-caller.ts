/**
 * The caller as established from a verified token; never from a body or query.
 * - user: a person (`sub`).
 * - application: a client-credentials client (`client_id`), authorized by its scopes.
 * - delegated: a subject acting for another (RFC 8693 `act`); bypasses the decision cache.
 */
export type CallerKind = 'user' | 'application' | 'delegated';
export const CALLER_KINDS: readonly CallerKind[] = ['user', 'application', 'delegated'];

export interface TrustedCaller {
  kind: CallerKind;
  /** The subject the decision is made for (`sub`; the client id for applications). */
  subject: string;
  tenantId: string;
  clientId?: string;
  scopes: string[];
  /** The acting subject for delegated callers (`act.sub`). */
  actor?: string;
  /** Delegation grant id (`grant_id`), when the token names one. */
  grantId?: string;
  /** Stable digest of the claims that may influence a decision; part of the decision cache key. */
  claimsDigest: string;
  /** Token expiry, epoch seconds. */
  expiresAt?: number;
}

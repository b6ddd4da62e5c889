/** The longest a delegation may run: 30 days from its creation. */
export const MAX_DELEGATION_SECONDS = 30 * 24 * 60 * 60;

/**
 * Why an expiry is not acceptable at `now`, or null when it is: it must lie in the future and at
 * most `MAX_DELEGATION_SECONDS` ahead, so every delegation ends on its own.
 */
export function delegationExpiryProblem(expiresAt: Date, now: Date): string | null {
  if (Number.isNaN(expiresAt.getTime())) return 'expiresAt must be an ISO 8601 date-time';
  if (expiresAt.getTime() <= now.getTime()) return 'expiresAt must be in the future';
  if (expiresAt.getTime() - now.getTime() > MAX_DELEGATION_SECONDS * 1000) return `expiresAt must be at most ${MAX_DELEGATION_SECONDS / 86400} days ahead`;
  return null;
}

export type DelegationStatus = 'active' | 'expired' | 'revoked';

export function delegationStatus(grant: { expiresAt: Date; revokedAt: Date | null }, now: Date): DelegationStatus {
  if (grant.revokedAt) return 'revoked';
  return grant.expiresAt.getTime() > now.getTime() ? 'active' : 'expired';
}

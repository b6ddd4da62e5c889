import { PermissionRequestStatus } from '../policy-store/entities/permission-request.entity';

/**
 * The status a reader sees: an approved request whose grant has run out is `expired` (nothing
 * rewrites the row when the grant ends; the decision core stops honouring it by its expiry).
 */
export function effectiveRequestStatus(stored: PermissionRequestStatus, grantExpiresAt: Date | null, now: Date): PermissionRequestStatus {
  if (stored === 'approved' && grantExpiresAt !== null && grantExpiresAt.getTime() <= now.getTime()) return 'expired';
  return stored;
}

/** Absolute end of a grant approved at `approvedAt` for `durationSeconds` (spec §1 rule 5). */
export function grantExpiry(approvedAt: Date, durationSeconds: number): Date {
  return new Date(approvedAt.getTime() + durationSeconds * 1000);
}

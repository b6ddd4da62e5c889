import { DomainError } from '@lp/contracts';

/** The id is taken by a tenant with another name or administrator: a create is only repeatable with the same body. */
export class TenantConflictError extends DomainError {
  constructor(id: string) {
    super(
      'Operations.TenantConflict',
      409,
      `Tenant "${id}" already exists with a different name or administrator; a repeated create must send the same id, name and adminSubject.`,
    );
  }
}

/** The platform tenant is seeded, never created, and never suspended: suspending it would lock out the operators who could lift it. */
export class PlatformTenantProtectedError extends DomainError {
  constructor(id: string, what: 'created' | 'suspended') {
    super('Operations.PlatformTenantProtected', 409, `The platform tenant "${id}" cannot be ${what}.`);
  }
}

/**
 * The tenant row is written but policy-management could not be asked (or did not answer) to set up
 * its first administrator. Retryable: the same request completes it (the bootstrap is idempotent).
 */
export class TenantBootstrapUnavailableError extends DomainError {
  override readonly retryAfterSeconds = 1;

  constructor(id: string) {
    super(
      'Operations.TenantBootstrapUnavailable',
      503,
      `Tenant "${id}" was recorded, but its administrator could not be set up yet; repeat the same request to complete it.`,
    );
  }
}

/**
 * The new status is saved but policy-management could not be told, so decisions do not reflect it
 * yet. Retryable: the same request sends it again (idempotent, versioned).
 */
export class TenantStatusUnavailableError extends DomainError {
  override readonly retryAfterSeconds = 1;

  constructor(id: string) {
    super(
      'Operations.TenantStatusUnavailable',
      503,
      `The status of tenant "${id}" was saved, but the decision service could not be told yet; repeat the same request to complete it.`,
    );
  }
}

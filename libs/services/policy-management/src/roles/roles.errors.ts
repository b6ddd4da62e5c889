import { DomainError } from '@lp/contracts';

/** Another role of the tenant already has the name (also when two writes race: the unique index decides). */
export class RoleNameTakenError extends DomainError {
  constructor(name: string) {
    super('Authorization.RoleNameTaken', 409, `A role named "${name}" already exists in this tenant.`);
  }
}

/**
 * A seeded role the tenant is administered through (`isProtectedRole`) keeps its name, cannot be
 * deleted, and keeps the permissions that keep the tenant administrable.
 */
export class RoleProtectedError extends DomainError {
  constructor(name: string, what: 'renamed' | 'deleted' | { losing: string }) {
    super(
      'Authorization.RoleProtected',
      409,
      typeof what === 'string'
        ? `The seeded role "${name}" cannot be ${what}.`
        : `The seeded role "${name}" keeps ${what.losing}: without it the tenant could not be administered.`,
    );
  }
}

import { DomainError } from '@lp/contracts';

/** Another role of the tenant already has the name (also when two writes race: the unique index decides). */
export class RoleNameTakenError extends DomainError {
  constructor(name: string) {
    super('Authorization.RoleNameTaken', 409, `A role named "${name}" already exists in this tenant.`);
  }
}

/** The seeded `platform-admin` role of tenant `default` keeps its name and cannot be deleted. */
export class RoleProtectedError extends DomainError {
  constructor(name: string, what: 'renamed' | 'deleted') {
    super('Authorization.RoleProtected', 409, `The seeded role "${name}" cannot be ${what}.`);
  }
}

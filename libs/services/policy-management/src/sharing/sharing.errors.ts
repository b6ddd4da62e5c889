import { DomainError } from '@lp/contracts';

/** A share names a role that the caller's tenant does not have (the body refers to it, so 422, not 404). */
export class ShareRoleUnknownError extends DomainError {
  constructor(roleName: string) {
    super('Authorization.Sharing.RoleUnknown', 422, `The tenant has no role named "${roleName}".`, { subject: [`no role named "${roleName}"`] });
  }
}

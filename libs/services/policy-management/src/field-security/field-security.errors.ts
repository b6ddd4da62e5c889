import { DomainError } from '@lp/contracts';

/** A field policy names a role id the caller's tenant does not have (the body refers to it, so 422, not 404). */
export class FieldPolicyRoleUnknownError extends DomainError {
  constructor(roleId: string) {
    super('Authorization.FieldSecurity.RoleUnknown', 422, `The tenant has no role with id ${roleId}.`, { roleId: ['no such role in the tenant'] });
  }
}

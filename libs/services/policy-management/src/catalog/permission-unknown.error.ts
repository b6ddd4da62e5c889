import { DomainError } from '@lp/contracts';

/** Some codes named in a request are not in the permission catalog (`authz.permission`). */
export class PermissionUnknownError extends DomainError {
  constructor(readonly codes: string[]) {
    super('Authorization.PermissionUnknown', 422, `Not in the permission catalog: ${codes.join(', ')}.`, {
      permissionCodes: codes.map((c) => `unknown permission ${c}`),
    });
  }
}

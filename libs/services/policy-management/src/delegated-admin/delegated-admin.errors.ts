import { DomainError } from '@lp/contracts';

/** A delegation may only pass on codes the delegator holds itself right now. */
export class DelegationExceedsDelegatorError extends DomainError {
  constructor(readonly codes: string[]) {
    super('Authorization.DelegationExceedsDelegator', 422, `The delegator does not hold: ${codes.join(', ')}.`, {
      permissionCodes: codes.map((c) => `not held by the delegator: ${c}`),
    });
  }
}

/** Only a user acting for itself delegates; a delegate cannot pass its borrowed authority on. */
export class DelegationByNonUserError extends DomainError {
  constructor(kind: string) {
    super('Authorization.DelegationRequiresUser', 403, `A ${kind} caller cannot delegate; only a user delegates its own permissions.`);
  }
}

export class DelegationAlreadyRevokedError extends DomainError {
  constructor(id: string) {
    super('Authorization.DelegationAlreadyRevoked', 409, `Delegation ${id} is already revoked.`);
  }
}

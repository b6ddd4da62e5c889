import { Injectable } from '@nestjs/common';
import { DomainError } from '@lp/contracts';
import type { AssigneeDirectory } from '../engine';

/** The provider simulations resolve role assignees through (policy-management's role members). */
export const ASSIGNEE_DIRECTORY = Symbol('ASSIGNEE_DIRECTORY');

/** Role members cannot be resolved: the simulation stops with a retryable 503 instead of inventing an empty role. */
export class RoleMembersUnavailableError extends DomainError {
  override readonly retryAfterSeconds = 5;

  constructor(role: string) {
    super('Workflow.Simulation.RoleMembersUnavailable', 503, `The members of role "${role}" cannot be resolved right now; simulate again later.`);
  }
}

/**
 * Role members from policy-management over RPC. The pattern (`authz.role.members`) is not in the
 * contracts yet, so every lookup is refused as unavailable: a simulation whose path never reaches
 * a role assignee works today, one that does answers 503 rather than a wrong (empty) assignment.
 */
@Injectable()
export class RpcAssigneeDirectory implements AssigneeDirectory {
  membersOfRole(_tenantId: string, roleName: string): Promise<string[]> {
    return Promise.reject(new RoleMembersUnavailableError(roleName));
  }
}

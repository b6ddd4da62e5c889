import { Injectable, Logger } from '@nestjs/common';
import { AuthorizationAction, AuthzRpc, DomainError, FleetService, permissionCode, RoleMembersReply, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
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
 * Who the engine is when it resolves role assignees: an application caller of the task's tenant
 * whose only scope is `authorization.role.view`, so policy-management's guard decides it like any
 * client and the engine can read role members, nothing else.
 */
export function assigneeResolverCaller(tenantId: string): TrustedCaller {
  return {
    kind: 'application',
    subject: FleetService.workflowEngine,
    clientId: FleetService.workflowEngine,
    tenantId,
    scopes: [permissionCode('authorization', 'role', AuthorizationAction.View)],
    claimsDigest: 'workflow-engine:assignee-resolver',
  };
}

/**
 * Role members from policy-management over RPC (`authz.role.members`). A role the tenant does not
 * have has no members (the node's empty-assignee policy then applies); no answer is a retryable
 * 503, never an invented empty role.
 */
@Injectable()
export class RpcAssigneeDirectory implements AssigneeDirectory {
  private readonly logger = new Logger(RpcAssigneeDirectory.name);

  constructor(private readonly rpc: RpcClient) {}

  async membersOfRole(tenantId: string, roleName: string): Promise<string[]> {
    let reply: RoleMembersReply;
    try {
      reply = await this.rpc.call(AuthzRpc.roleMembers, { caller: assigneeResolverCaller(tenantId), payload: { roleName } });
    } catch (error) {
      this.logger.warn(`members of role ${roleName} (tenant ${tenantId}) unavailable: ${error instanceof Error ? error.message : String(error)}`);
      throw new RoleMembersUnavailableError(roleName);
    }
    if (reply.truncated)
      this.logger.warn(`role ${roleName} of tenant ${tenantId} has more members than one answer carries; the first ${reply.subjects.length} are assigned`);
    return reply.subjects;
  }
}

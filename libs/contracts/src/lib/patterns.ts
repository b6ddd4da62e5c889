/** RPC patterns: one durable queue per service, named `{service}.rpc`. */
export const RpcPatterns = {
  authz: {
    decide: 'authz.decide',
    decideBatch: 'authz.decide-batch',
    explain: 'authz.explain',
    queryAudit: 'authz.audit.query',
    /** What-if decision for one subject under a policy overlay: nothing written, cached or audited. */
    simulate: 'authz.simulate',
    /** Re-decides a sample of the tenant's audited decisions under a policy overlay. */
    simulateReplay: 'authz.simulate-replay',
    /** Bump the revisions an authorization change moves, right after its commit (policy-management). */
    invalidate: 'authz.invalidate',
    /**
     * Gives a new tenant its first administrator (policy-management; platform-level permission
     * `authorization.tenant.create`): role `tenant-admin` with every tenant-level permission, bound
     * to the named subject. Idempotent. Request `TenantBootstrapRequest`, reply `TenantBootstrapResult`.
     */
    tenantBootstrap: 'authz.tenant.bootstrap',
  },
  diagnostics: {
    snapshot: 'diagnostics.snapshot',
  },
} as const;

export interface TenantBootstrapRequest {
  tenantId: string;
  adminSubject: string;
}

export interface TenantBootstrapResult {
  tenantId: string;
  roleId: string;
  roleName: string;
  adminSubject: string;
  /** What this call wrote; all false/0 on a repeat. */
  created: { role: boolean; permissions: number; binding: boolean };
}

export const ServiceQueues = {
  authzDecision: 'authz-decision.rpc',
  policyManagement: 'policy-management.rpc',
} as const;

/** Integration event types; also the routing keys on `integration.events`. */
export const EventTypes = {
  authorization: {
    roleCreated: 'authorization.role.created',
    roleUpdated: 'authorization.role.updated',
    roleDeleted: 'authorization.role.deleted',
    rolePermissionChanged: 'authorization.role-permission.changed',
    userRoleAssigned: 'authorization.user-role.assigned',
    userRoleRevoked: 'authorization.user-role.revoked',
    abacRuleChanged: 'authorization.abac-rule.changed',
    featureChanged: 'authorization.feature.changed',
    relationChanged: 'authorization.relation.changed',
    subjectOfficeChanged: 'authorization.subject-office.changed',
    delegationChanged: 'authorization.delegation.changed',
    temporaryGrantChanged: 'authorization.temporary-grant.changed',
    fieldPolicyChanged: 'authorization.field-policy.changed',
    permissionRequestChanged: 'authorization.permission-request.changed',
  },
} as const;

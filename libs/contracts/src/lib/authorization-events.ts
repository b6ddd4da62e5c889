import type { EventEnvelope } from './event-envelope';

/**
 * Payloads of the `authorization.*` integration events policy-management publishes through its
 * outbox (spec §6 leaves them open). Every payload names the tenant it concerns (`tenantId`, the
 * effective tenant; null only for a global feature default) and the subjects whose decisions it
 * changes (`subject`/`subjects`: the target of a change, never the administrator who made it).
 * authz-decision's invalidation reads exactly `tenantId`, `subject`, `subjects` and `scope`.
 * The actor, the time and the correlation id are in the envelope and the policy change log.
 */
export type ChangeKind = 'created' | 'updated' | 'deleted';

/** authorization.role.created / .updated / .deleted */
export interface RoleChangedPayload {
  tenantId: string;
  roleId: string;
  roleName: string;
  /** The name before a rename (update only). */
  previousName?: string;
  change: ChangeKind;
}

/** authorization.role-permission.changed */
export interface RolePermissionChangedPayload {
  tenantId: string;
  roleId: string;
  roleName: string;
  permissionId: string;
  permissionCode: string;
  change: 'granted' | 'revoked';
}

/** authorization.user-role.assigned / .revoked: `subject` is the user in the path. */
export interface UserRoleChangedPayload {
  tenantId: string;
  subject: string;
  roleId: string;
  roleName: string;
}

/** authorization.abac-rule.changed: `tenantId` is the rule's (effective) tenant. */
export interface AbacRuleChangedPayload {
  tenantId: string;
  ruleId: string;
  change: ChangeKind;
}

/** authorization.feature.changed (FeatureChangedIntegrationEvent). */
export interface FeatureChangedPayload {
  featureCode: string;
  /** `global`: the default changed (every tenant); `tenant`: one tenant's override. */
  scope: 'global' | 'tenant';
  /** The tenant of an override; null for the global default. */
  tenantId: string | null;
  enabled: boolean;
  /** The value in force for that scope before the change (null: no override existed). */
  previous: boolean | null;
}

/** authorization.relation.changed: a share of one resource instance (ReBAC). */
export interface RelationChangedPayload {
  tenantId: string;
  resourceType: string;
  resourceId: string;
  /** A user subject or a role name, per `subjectKind`. */
  subject: string;
  subjectKind: 'user' | 'role';
  relation: 'owner' | 'member' | 'viewer';
  change: 'granted' | 'revoked';
}

/** authorization.delegation.changed: both the delegator and the delegate are named. */
export interface DelegationChangedPayload {
  tenantId: string;
  delegationId: string;
  subjects: string[];
  change: 'granted' | 'revoked';
}

/** authorization.temporary-grant.changed: `subject` is the grantee. */
export interface TemporaryGrantChangedPayload {
  tenantId: string;
  grantId: string;
  subject: string;
  permissionCodes: string[];
  expiresAt: string;
  change: 'granted' | 'revoked';
}

/** authorization.field-policy.changed */
export interface FieldPolicyChangedPayload {
  tenantId: string;
  policyId: string;
  resourceType: string;
  change: ChangeKind;
}

/** authorization.permission-request.changed */
export interface PermissionRequestChangedPayload {
  tenantId: string;
  requestId: string;
  subject: string;
  status: 'pending' | 'approved' | 'rejected' | 'revoked' | 'expired';
}

/** RPC `authz.invalidate`: the envelopes of one committed change, handled in order. */
export interface InvalidateRequest {
  events: EventEnvelope[];
}

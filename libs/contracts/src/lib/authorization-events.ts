import { z } from 'zod';
import type { EventEnvelope } from './event-envelope';
import { AnyEventContract, eventContract, eventFamily, EventPayloadOf } from './messaging/event-contract';

/**
 * The `authorization.*` integration events policy-management publishes through its outbox (spec
 * §6 leaves them open). Every payload names the tenant it concerns (`tenantId`, the effective
 * tenant; null only for a global feature default) and the subjects whose decisions it changes
 * (`subject`/`subjects`: the target of a change, never the administrator who made it). The actor,
 * the time and the correlation id are in the envelope and the policy change log.
 */
const changeKind = z.enum(['created', 'updated', 'deleted']);
export type ChangeKind = z.infer<typeof changeKind>;
const grantChange = z.enum(['granted', 'revoked']);
/** A time-boxed grant also ends on its own: `expired` is recorded by policy-management's grant-expiry job. */
const timeBoxedGrantChange = z.enum(['granted', 'revoked', 'expired']);
const id = z.string().min(1);

const roleChanged = z.object({
  tenantId: id,
  roleId: id,
  roleName: id,
  /** The name before a rename (update only). */
  previousName: z.string().optional(),
  change: changeKind,
});
export type RoleChangedPayload = z.infer<typeof roleChanged>;

const rolePermissionChanged = z.object({ tenantId: id, roleId: id, roleName: id, permissionId: id, permissionCode: id, change: grantChange });
export type RolePermissionChangedPayload = z.infer<typeof rolePermissionChanged>;

/** `subject` is the user in the path. */
const userRoleChanged = z.object({ tenantId: id, subject: id, roleId: id, roleName: id });
export type UserRoleChangedPayload = z.infer<typeof userRoleChanged>;

/** `tenantId` is the rule's (effective) tenant. */
const abacRuleChanged = z.object({ tenantId: id, ruleId: id, change: changeKind });
export type AbacRuleChangedPayload = z.infer<typeof abacRuleChanged>;

const featureChanged = z.object({
  featureCode: id,
  /** `global`: the default changed (every tenant); `tenant`: one tenant's override. */
  scope: z.enum(['global', 'tenant']),
  /** The tenant of an override; null for the global default. */
  tenantId: id.nullable(),
  enabled: z.boolean(),
  /** The value in force for that scope before the change (null: no override existed). */
  previous: z.boolean().nullable(),
});
export type FeatureChangedPayload = z.infer<typeof featureChanged>;

/** A share of one resource instance (ReBAC); `subject` is a user or a role name, per `subjectKind`. */
const relationChanged = z.object({
  tenantId: id,
  resourceType: id,
  resourceId: id,
  subject: id,
  subjectKind: z.enum(['user', 'role']),
  relation: z.enum(['owner', 'member', 'viewer']),
  change: grantChange,
});
export type RelationChangedPayload = z.infer<typeof relationChanged>;

/** Both the delegator and the delegate are named. */
const delegationChanged = z.object({ tenantId: id, delegationId: id, subjects: z.array(id), change: timeBoxedGrantChange });
export type DelegationChangedPayload = z.infer<typeof delegationChanged>;

/** `subject` is the grantee. */
const temporaryGrantChanged = z.object({
  tenantId: id,
  grantId: id,
  subject: id,
  permissionCodes: z.array(id),
  expiresAt: z.string(),
  change: timeBoxedGrantChange,
});
export type TemporaryGrantChangedPayload = z.infer<typeof temporaryGrantChanged>;

const subjectOfficeChanged = z.object({ tenantId: id, subjects: z.array(id) });
export type SubjectOfficeChangedPayload = z.infer<typeof subjectOfficeChanged>;

const fieldPolicyChanged = z.object({ tenantId: id, policyId: id, resourceType: id, change: changeKind });
export type FieldPolicyChangedPayload = z.infer<typeof fieldPolicyChanged>;

/**
 * `subject` is the requester. The filing event (`pending`) also says how the request is decided
 * (`approval`) and, when a workflow decides it, what the workflow needs to start: the codes, the
 * duration and the reason (policy-management docs/permission-requests.md).
 */
const permissionRequestChanged = z.object({
  tenantId: id,
  requestId: id,
  subject: id,
  status: z.enum(['pending', 'approved', 'rejected', 'revoked', 'expired']),
  approval: z.enum(['workflow', 'route']).optional(),
  permissionCodes: z.array(id).optional(),
  durationSeconds: z.number().int().positive().optional(),
  reason: z.string().optional(),
});
export type PermissionRequestChangedPayload = z.infer<typeof permissionRequestChanged>;

/**
 * A tenant was suspended or reactivated (operations asks, policy-management records it in
 * `authz.tenant_status`). Every decision of the tenant's callers depends on it: a suspended
 * tenant's callers are denied everywhere.
 */
const tenantStatusChanged = z.object({
  tenantId: id,
  status: z.enum(['active', 'suspended']),
  /** The status in force before the change (`active` when none was recorded). */
  previous: z.enum(['active', 'suspended']),
});
export type TenantStatusChangedPayload = z.infer<typeof tenantStatusChanged>;

/** Every `authorization.*` event, one typed descriptor each. */
export const AuthorizationEvents = {
  roleCreated: eventContract('authorization.role.created', roleChanged),
  roleUpdated: eventContract('authorization.role.updated', roleChanged),
  roleDeleted: eventContract('authorization.role.deleted', roleChanged),
  rolePermissionChanged: eventContract('authorization.role-permission.changed', rolePermissionChanged),
  userRoleAssigned: eventContract('authorization.user-role.assigned', userRoleChanged),
  userRoleRevoked: eventContract('authorization.user-role.revoked', userRoleChanged),
  abacRuleChanged: eventContract('authorization.abac-rule.changed', abacRuleChanged),
  featureChanged: eventContract('authorization.feature.changed', featureChanged),
  relationChanged: eventContract('authorization.relation.changed', relationChanged),
  subjectOfficeChanged: eventContract('authorization.subject-office.changed', subjectOfficeChanged),
  delegationChanged: eventContract('authorization.delegation.changed', delegationChanged),
  temporaryGrantChanged: eventContract('authorization.temporary-grant.changed', temporaryGrantChanged),
  fieldPolicyChanged: eventContract('authorization.field-policy.changed', fieldPolicyChanged),
  permissionRequestChanged: eventContract('authorization.permission-request.changed', permissionRequestChanged),
  tenantStatusChanged: eventContract('authorization.tenant.status-changed', tenantStatusChanged),
} as const;

type AuthorizationEventContracts = typeof AuthorizationEvents;

/**
 * Every `authorization.*` event, as the caches that depend on policy consume them (the decision
 * caches, the menus). The pattern is wider than the contracts on purpose: an event type a newer
 * publisher adds still reaches the consumers, which then invalidate more, never less.
 */
export const AuthorizationEventFamily = eventFamily('authorization.#', AuthorizationEvents);

/** Only the permission-request events: the workflow engine starts and ends the approval flows on them. */
export const PermissionRequestEventFamily = eventFamily(AuthorizationEvents.permissionRequestChanged.type, {
  permissionRequestChanged: AuthorizationEvents.permissionRequestChanged,
});

/** One `authorization.*` event to publish: its type with a payload of that type's shape (a mismatch does not compile). */
export type AuthorizationEvent = {
  [K in keyof AuthorizationEventContracts]: { type: AuthorizationEventContracts[K]['type']; payload: EventPayloadOf<AuthorizationEventContracts[K]> };
}[keyof AuthorizationEventContracts];

/** Integration event types (the routing keys on `integration.events`), from the descriptors. */
export const EventTypes = {
  authorization: Object.fromEntries(Object.entries(AuthorizationEvents).map(([name, contract]) => [name, contract.type])) as {
    readonly [K in keyof typeof AuthorizationEvents]: (typeof AuthorizationEvents)[K]['type'];
  },
} as const;

const AUTHORIZATION_EVENT_BY_TYPE: ReadonlyMap<string, AnyEventContract> = new Map(Object.values(AuthorizationEvents).map((c) => [c.type, c]));

/** The descriptor of an `authorization.*` event type, if it is one. */
export function authorizationEventContract(type: string): AnyEventContract | undefined {
  return AUTHORIZATION_EVENT_BY_TYPE.get(type);
}

/** Whom a change concerns, read the same way by every consumer (decision caches, menus). */
export interface AuthorizationChangeTarget {
  /** `payload.tenantId` when set (the effective tenant), else the envelope's; undefined when neither names one. */
  tenantId?: string;
  /** The subjects whose bindings or grants changed (`subject`, `subjects`, `userId`), deduplicated; never the actor. */
  subjects: string[];
  /** `authorization.feature.changed` only: `global` (a default) or `tenant` (an override); any other value as sent, for the reader to widen. */
  scope?: string;
  /** False when the payload does not match its contract: the reader widens (an extra miss is cheap, a stale permit is not). */
  wellFormed: boolean;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Which tenant and which subjects an `authorization.*` event concerns. The payload is checked with
 * its contract on receipt; a payload that fails it is still read for what it names (an older
 * publisher), flagged `wellFormed: false`.
 */
export function authorizationChangeTarget(envelope: Pick<EventEnvelope, 'eventType' | 'payload' | 'tenantId'>): AuthorizationChangeTarget {
  const contract = authorizationEventContract(envelope.eventType);
  const wellFormed = contract?.schema.safeParse(envelope.payload).success === true;
  const p = (typeof envelope.payload === 'object' && envelope.payload !== null ? envelope.payload : {}) as Record<string, unknown>;
  const tenantId = nonEmpty(p['tenantId']) ? p['tenantId'] : nonEmpty(envelope.tenantId) ? envelope.tenantId : undefined;
  const listed = Array.isArray(p['subjects']) ? p['subjects'] : [];
  const subjects = [...new Set([p['subject'], p['userId'], ...listed].filter(nonEmpty))];
  const scope = typeof p['scope'] === 'string' ? p['scope'] : undefined;
  return { ...(tenantId !== undefined ? { tenantId } : {}), subjects, ...(scope ? { scope } : {}), wellFormed };
}

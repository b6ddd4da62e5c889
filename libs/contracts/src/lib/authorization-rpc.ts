import { z } from 'zod';
import type { DataScope } from './data-scope';
import type { DecisionOutcome, DecisionReply, DecisionRequest, DecisionResult, EvaluatorResult } from './decision';
import { DecisionAuditItem, decisionAuditQuerySchema, Page } from './decision-audit';
import { decisionBatchMessageSchema, DecisionQuery, decisionMessageSchema, ValidDecisionRequest } from './decision-request';
import type { EventEnvelope } from './event-envelope';
import { rpcContract, RpcContract } from './messaging/rpc-contract';
import { PLATFORM_TENANT } from './permission-catalog';
import { PolicyOverlay, SimulatedDecision, SimulateReplayResult, SimulationLimits } from './simulation';
import { tenantIdSchema } from './tenant-id';
import { CALLER_KINDS, CallerKind } from './trusted-caller';
import { AUTHORIZATION_ACTIONS, AuthorizationAction } from './authorization-action';

const AUTHZ_DECISION = 'authz-decision';
const POLICY_MANAGEMENT = 'policy-management';

/** The full account of one decision (`authz.explain`): every evaluator's inputs, the merge, the DataScope resolution. */
export interface DecisionExplanationReply {
  decision: DecisionResult;
  request: DecisionRequest;
  permissionCode: string;
  evaluatedAt: string;
  evaluators: Array<EvaluatorResult & { inputs: Record<string, unknown>; storeFailure?: string; error?: string }>;
  merge: { outcome: DecisionOutcome; permitted: boolean; rule: string; denialReasons: string[]; obligations: string[] };
  dataScope: { dataScope: DataScope; rule: string; candidates: DataScope[] };
}

/** One counter an invalidation moved, with its value after the bump. */
export interface RevisionBump {
  name: string;
  revision: number;
}

export interface InvalidationResult {
  eventId: string;
  eventType: string;
  bumped: RevisionBump[];
  /** Why nothing was bumped: an event type that changes no cached fact, or a tenant event without a tenant. */
  ignored?: string;
}

export interface TenantBootstrapResult {
  tenantId: string;
  roleId: string;
  roleName: string;
  adminSubject: string;
  /** What this call wrote; all false/0 on a repeat. */
  created: { role: boolean; permissions: number; binding: boolean };
}

/** Largest `authz.invalidate` call: the envelopes of one committed change. */
export const MAX_INVALIDATION_EVENTS = 100;

const eventEnvelopeSchema = z.object({
  eventId: z.string().min(1),
  eventType: z.string().startsWith('authorization.', 'an authorization.* event envelope is required'),
  version: z.number().int(),
  tenantId: z.string().nullable(),
  occurredAt: z.string(),
  correlationId: z.string().nullable(),
  payload: z.unknown(),
}) as z.ZodType<EventEnvelope>;

const tenantBootstrapSchema = z.strictObject({
  tenantId: tenantIdSchema().refine(
    (id) => id !== PLATFORM_TENANT,
    `tenantId must not be the platform tenant "${PLATFORM_TENANT}": it is seeded, not bootstrapped`,
  ),
  /** The subject (token `sub`) of the new tenant's first administrator. */
  adminSubject: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^\p{Cc}]+$/u, 'adminSubject must not contain control characters'),
});
export type TenantBootstrapRequest = z.infer<typeof tenantBootstrapSchema>;

/** A tenant's lifecycle status as decisions see it (operations owns the tenant row). */
export type TenantStatus = 'active' | 'suspended';
export const TENANT_STATUSES: readonly TenantStatus[] = ['active', 'suspended'];

const tenantStatusSchema = z.strictObject({
  tenantId: tenantIdSchema().refine(
    (id) => id !== PLATFORM_TENANT,
    `tenantId must not be the platform tenant "${PLATFORM_TENANT}": suspending it would lock out the operators`,
  ),
  status: z.enum(['active', 'suspended']),
  /**
   * operations' counter for the tenant's status (it moves on every status change): a report older
   * than the one recorded is ignored, so two changes whose calls cross cannot leave the older one in
   * force. The same version again is a repeat (answered, nothing written).
   */
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});
export type TenantStatusRequest = z.infer<typeof tenantStatusSchema>;

export interface TenantStatusResult {
  tenantId: string;
  /** The status in force after the call (the recorded one when the report was stale). */
  status: TenantStatus;
  version: number;
  /** `changed`: written and announced; `unchanged`: same status already recorded; `stale`: an older version than the one recorded (ignored). */
  outcome: 'changed' | 'unchanged' | 'stale';
}

/** A feature's state for the caller's tenant (`authz.feature.status`). */
export interface FeatureStatusReply {
  tenantId: string;
  featureCode: string;
  /** The tenant override, else the global default; false for a feature that is not defined. */
  enabled: boolean;
  defined: boolean;
}

/** Where a held permission comes from (`authz.me.permissions`, `GET /api/authorization/me/permissions`). */
export interface PermissionSourceView {
  kind: 'role' | 'temporaryGrant' | 'delegation';
  role?: string;
  grantId?: string;
  from?: string;
  expiresAt?: string;
}

/** The caller's own permissions and the tenant's disabled features. */
export interface MyPermissionsReply {
  tenantId: string;
  subject: string;
  codes: string[];
  permissions: Array<{ code: string; sources: PermissionSourceView[] }>;
  disabledFeatures: Array<{ feature: string; modules: string[] }>;
}

/** Largest member list `authz.role.members` answers; a longer one is cut and flagged. */
export const MAX_ROLE_MEMBERS = 1_000;

/** The members of one role of the caller's tenant (`authz.role.members`). */
export interface RoleMembersReply {
  tenantId: string;
  roleName: string;
  /** False for a role name the tenant does not have (then `subjects` is empty). */
  exists: boolean;
  /** Subjects bound to the role, sorted; at most MAX_ROLE_MEMBERS. */
  subjects: string[];
  truncated: boolean;
}

const simulatedResourceSchema = z.object({
  module: z.string(),
  resourceType: z.string(),
  resourceId: z.string().optional(),
  status: z.string().optional(),
  amount: z.number().optional(),
  sensitivity: z.string().optional(),
  owner: z.string().optional(),
  officeId: z.string().optional(),
});

/** The overlay's entries are checked against the tenant's facts by authz-decision (`validatePolicyOverlay`). */
const overlaySchema = z.custom<PolicyOverlay>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object');

const simulateSchema = z.strictObject({
  subject: z.string().min(1),
  callerKind: z.enum(CALLER_KINDS as [CallerKind, ...CallerKind[]]).optional(),
  clientId: z.string().min(1).optional(),
  scopes: z.array(z.string()).max(SimulationLimits.maxScopes).optional(),
  actor: z.string().min(1).optional(),
  grantId: z.string().min(1).optional(),
  request: z.object({ resource: simulatedResourceSchema, action: z.enum(AUTHORIZATION_ACTIONS as [AuthorizationAction, ...AuthorizationAction[]]) }),
  overlay: overlaySchema.optional(),
});

const simulateReplaySchema = z.strictObject({
  overlay: overlaySchema.optional(),
  sample: z.number().int().min(1).max(SimulationLimits.maxReplaySample).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});

/**
 * Every RPC pattern of the authorization services, one typed descriptor each. Requests are
 * `{ caller, payload }`; the tenant is always the caller's.
 */
export const AuthzRpc = {
  /** A decision for the caller (every guard asks it). Lean reply; `withReasons: true` adds the evaluations. */
  decide: { pattern: 'authz.decide', service: AUTHZ_DECISION, schema: decisionMessageSchema } as RpcContract<
    DecisionQuery,
    DecisionReply,
    ValidDecisionRequest
  >,
  /** Up to 100 decisions for one caller, answered in order. */
  decideBatch: { pattern: 'authz.decide-batch', service: AUTHZ_DECISION, schema: decisionBatchMessageSchema } as RpcContract<
    { requests: DecisionQuery[] },
    DecisionReply[],
    ValidDecisionRequest[]
  >,
  /** The full trace of one decision; never cached. */
  explain: { pattern: 'authz.explain', service: AUTHZ_DECISION, schema: decisionMessageSchema } as RpcContract<
    DecisionQuery,
    DecisionExplanationReply,
    ValidDecisionRequest
  >,
  /** The decision audit of the caller's tenant, newest first. */
  queryAudit: rpcContract<Page<DecisionAuditItem>>()({ pattern: 'authz.audit.query', service: AUTHZ_DECISION, payload: decisionAuditQuerySchema }),
  /** What-if decision for one subject under a policy overlay: nothing written, cached or audited. */
  simulate: rpcContract<SimulatedDecision>()({ pattern: 'authz.simulate', service: AUTHZ_DECISION, payload: simulateSchema }),
  /** Re-decides a sample of the tenant's audited decisions under a policy overlay. */
  simulateReplay: rpcContract<SimulateReplayResult>()({ pattern: 'authz.simulate-replay', service: AUTHZ_DECISION, payload: simulateReplaySchema }),
  /** Bump the revisions an authorization change moves, right after its commit (policy-management). */
  invalidate: rpcContract<InvalidationResult[]>()({
    pattern: 'authz.invalidate',
    service: AUTHZ_DECISION,
    payload: z.strictObject({ events: z.array(eventEnvelopeSchema).min(1).max(MAX_INVALIDATION_EVENTS) }),
  }),
  /**
   * Gives a new tenant its first administrator (policy-management; platform-level permission
   * `authorization.tenant.create`): role `tenant-admin` with every tenant-level permission, bound to
   * the named subject. Idempotent.
   */
  tenantBootstrap: rpcContract<TenantBootstrapResult>()({ pattern: 'authz.tenant.bootstrap', service: POLICY_MANAGEMENT, payload: tenantBootstrapSchema }),
  /**
   * Records a tenant's status (policy-management; platform-level permission
   * `authorization.tenant.update`): a suspended tenant's callers are denied every decision, from the
   * very next request. Idempotent; versioned so crossing calls cannot reorder (see the payload).
   */
  tenantStatus: rpcContract<TenantStatusResult>()({ pattern: 'authz.tenant.status', service: POLICY_MANAGEMENT, payload: tenantStatusSchema }),
  /** Whether a feature is on for the caller's tenant (the MCP gateway asks for `mcp.access` on every request); never cached. */
  featureStatus: rpcContract<FeatureStatusReply>()({
    pattern: 'authz.feature.status',
    service: AUTHZ_DECISION,
    payload: z.strictObject({ featureCode: z.string().min(1).max(100) }),
  }),
  /** The caller's own permissions with their sources and the tenant's disabled features (the `/me/permissions` projection). */
  /** Who holds a role of the caller's tenant (`authorization.role.view`): the workflow engine resolves role assignees with it. */
  roleMembers: rpcContract<RoleMembersReply>()({
    pattern: 'authz.role.members',
    service: POLICY_MANAGEMENT,
    payload: z.strictObject({ roleName: z.string().min(1).max(100) }),
  }),
  myPermissions: rpcContract<MyPermissionsReply>()({ pattern: 'authz.me.permissions', service: POLICY_MANAGEMENT, payload: z.strictObject({}) }),
} as const;

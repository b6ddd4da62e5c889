import { AuthorizationAction } from './authorization-action';
import { permissionCode, PermissionCode } from './permission-code';

/**
 * `tenant`: grantable inside any tenant. `platform`: acts on every tenant (a global default, the
 * tenant list, the fleet's background jobs, an import naming its tenant), so it is grantable only to roles of the platform
 * tenant and decided Deny for callers of any other tenant (see `isPlatformPermission`).
 */
export type PermissionLevel = 'tenant' | 'platform';

export interface CatalogPermission {
  code: PermissionCode;
  module: string;
  resource: string;
  action: AuthorizationAction;
  description: string;
  level: PermissionLevel;
}

function entry(module: string, resource: string, action: AuthorizationAction, description: string, level: PermissionLevel = 'tenant'): CatalogPermission {
  return { code: permissionCode(module, resource, action), module, resource, action, description, level };
}

function platformEntry(module: string, resource: string, action: AuthorizationAction, description: string): CatalogPermission {
  return entry(module, resource, action, description, 'platform');
}

const A = AuthorizationAction;

/**
 * The governance route groups of spec §4 (last row): one capability each. The resource segment is
 * the group's path segment, so `/api/authorization/sharing` is guarded by `authorization.sharing.*`.
 */
export const GovernanceResources = {
  fieldSecurity: 'field-security',
  sharing: 'sharing',
  delegatedAdmin: 'delegated-admin',
  permissionAudit: 'permission-audit',
  permissionSimulation: 'permission-simulation',
  permissionRequests: 'permission-requests',
} as const;

const G = GovernanceResources;

/**
 * Every permission of the `authorization` module: the §4 table row by row, the governance groups,
 * and `authorization.feature-default.update`, the platform-level permission that changing a global
 * feature default needs on top of `authorization.feature.update`.
 */
export const AUTHORIZATION_PERMISSIONS: readonly CatalogPermission[] = [
  entry('authorization', 'role', A.View, 'List roles'),
  entry('authorization', 'role', A.Create, 'Create a role'),
  entry('authorization', 'role', A.Update, 'Update a role'),
  entry('authorization', 'role', A.Delete, 'Delete a role'),
  entry('authorization', 'user-role', A.View, "List a user's roles"),
  entry('authorization', 'user-role', A.Assign, 'Assign a role to a user'),
  entry('authorization', 'user-role', A.Revoke, 'Revoke a role from a user'),
  entry('authorization', 'role-permission', A.View, "List a role's permissions"),
  entry('authorization', 'role-permission', A.Grant, 'Grant a permission to a role'),
  entry('authorization', 'role-permission', A.Revoke, 'Revoke a permission from a role'),
  entry('authorization', 'permission', A.View, 'Read the permission tree'),
  entry('authorization', 'abac-rule', A.View, 'List ABAC rules'),
  entry('authorization', 'abac-rule', A.Create, 'Create an ABAC rule'),
  entry('authorization', 'abac-rule', A.Update, 'Update an ABAC rule'),
  entry('authorization', 'abac-rule', A.Delete, 'Delete an ABAC rule'),
  entry('authorization', 'feature', A.View, 'List features'),
  entry('authorization', 'feature', A.Update, "Change a feature's tenant override"),
  platformEntry('authorization', 'feature-default', A.Update, "Change a feature's global default (platform level)"),
  platformEntry('authorization', 'tenant', A.Create, "Bootstrap a new tenant's administrator role and binding (platform level)"),
  platformEntry('authorization', 'tenant', A.Update, 'Record that a tenant is suspended or active again, a fact every decision reads (platform level)'),
  entry('authorization', G.fieldSecurity, A.View, 'Read field policies'),
  entry('authorization', G.fieldSecurity, A.Manage, 'Create, change and delete field policies'),
  entry('authorization', G.sharing, A.View, 'List shares of resource instances'),
  entry('authorization', G.sharing, A.Manage, 'Share a resource instance with a user or role'),
  entry('authorization', G.sharing, A.Revoke, 'Revoke a share'),
  entry('authorization', G.delegatedAdmin, A.View, 'List delegations'),
  entry('authorization', G.delegatedAdmin, A.Manage, 'Delegate own permissions to another subject'),
  entry('authorization', G.delegatedAdmin, A.Revoke, 'Revoke a delegation'),
  entry('authorization', G.permissionAudit, A.View, 'Read the decision audit and the policy change log'),
  entry('authorization', G.permissionSimulation, A.View, 'Run what-if simulations (nothing is written)'),
  entry('authorization', G.permissionRequests, A.View, "List every subject's permission requests"),
  entry('authorization', G.permissionRequests, A.Approve, 'Approve a permission request (creates a temporary grant)'),
  entry('authorization', G.permissionRequests, A.Reject, 'Reject a permission request'),
  entry('authorization', G.permissionRequests, A.Revoke, 'End an approved temporary grant early'),
];

/**
 * The operations service (specs/operations.md §5). Every permission here is platform-level: the
 * jobs are the fleet's (one schedule and one run act on every tenant's data), the tenant list and
 * tenant administration act on every tenant, and the diagnostics describe the whole fleet (docs of
 * the operations service, Permissions). A per-tenant view of jobs would be a new permission.
 */
export const OPERATIONS_PERMISSIONS: readonly CatalogPermission[] = [
  platformEntry('operations', 'jobs', A.View, "List the fleet's background jobs and read their executions (platform level)"),
  platformEntry('operations', 'jobs', A.Manage, "Change schedules of, start, stop and run the fleet's background jobs (platform level)"),
  platformEntry('operations', 'tenants', A.View, 'List the tenants of the platform (platform level)'),
  platformEntry('operations', 'tenants', A.Manage, 'Create tenants and suspend or reactivate them (platform level)'),
  platformEntry('operations', 'diagnostics', A.View, 'Read the governance, adapter, connector and configuration reports of the fleet (platform level)'),
];

/** case-management: litigation cases (docs/services/case-management.md). */
export const CASES_PERMISSIONS: readonly CatalogPermission[] = [
  entry('cases', 'case', A.View, 'List and read litigation cases (within the DataScope)'),
  entry('cases', 'case', A.Create, 'Create a litigation case (the creator becomes its owner)'),
];

/**
 * workflow-engine (docs/services/workflow-engine.md, Permissions). Reading a definition includes
 * validating and simulating it (nothing is written); `manage` deploys. Instance `update` is the
 * initiator's own operations (withdraw, resubmit, remind, priority); instance `manage` the
 * high-privilege ones (terminate, cancel, suspend, resume, reset, start at a node, transfer the
 * applicant, batch (proxy) completion of tasks), audited. Task actions are decided with the task's facts (assignee, status) loaded
 * server-side. The legacy import names its tenant in the body, so it is platform-level.
 */
export const WORKFLOW_PERMISSIONS: readonly CatalogPermission[] = [
  entry('workflow', 'definition', A.View, 'Read workflow definitions, versions, deployments and drafts; validate and simulate them'),
  entry('workflow', 'definition', A.Update, 'Save and delete workflow definition drafts'),
  entry('workflow', 'definition', A.Manage, 'Publish, deploy, switch (grayscale), promote and roll back workflow definitions'),
  entry('workflow', 'instance', A.Create, 'Start a workflow instance'),
  entry('workflow', 'instance', A.View, 'Read workflow instances, their progress and history'),
  entry('workflow', 'instance', A.Update, 'Withdraw, resubmit, remind and reprioritize workflow instances'),
  entry(
    'workflow',
    'instance',
    A.Manage,
    'Terminate, cancel, suspend, resume, reset, start at a node and transfer the applicant of workflow instances, archive ended ones, and complete tasks in batches on behalf of their assignees (audited)',
  ),
  entry('workflow', 'task', A.View, 'Read workflow tasks (todo, done, detail) and mark them read'),
  entry('workflow', 'task', A.Approve, 'Complete (approve), transfer, delegate and add signers to workflow tasks'),
  entry('workflow', 'task', A.Reject, 'Reject workflow tasks'),
  entry('workflow', 'report', A.View, 'Read workflow reports'),
  entry('workflow', 'management', A.Manage, 'Workflow engine management: statistics, deletions, candidate refresh (audited)'),
  platformEntry('workflow', 'legacy-import', A.Create, 'Import a legacy workflow instance into the tenant the body names (platform level)'),
  platformEntry(
    'workflow',
    'management',
    A.Delete,
    'Force the deletion of a workflow definition version that instances or bindings still reference: its running instances are terminated (platform level)',
  ),
];

/**
 * webhook-dispatcher (docs/services/webhook-dispatcher.md, Permissions). Rotating a secret is
 * `manage`: the new secret is shown once, to whoever rotates. A ping is a delivery the caller sends.
 */
export const WEBHOOKS_PERMISSIONS: readonly CatalogPermission[] = [
  entry('webhooks', 'subscription', A.View, 'List and read webhook subscriptions (never their secrets)'),
  entry('webhooks', 'subscription', A.Create, 'Create a webhook subscription (its signing secret is shown once)'),
  entry('webhooks', 'subscription', A.Update, 'Change a webhook subscription (URL, event types, active, retries)'),
  entry('webhooks', 'subscription', A.Delete, 'Cancel a webhook subscription (soft delete; its pending deliveries are cancelled)'),
  entry('webhooks', 'subscription', A.Manage, "Rotate a webhook subscription's signing secret (the new one is shown once)"),
  entry('webhooks', 'delivery', A.View, "Read a subscription's delivery log"),
  entry('webhooks', 'delivery', A.Create, 'Send a test delivery (ping) to a subscription'),
  entry('webhooks', 'dead-letter', A.View, 'List and read dead-lettered deliveries'),
  entry('webhooks', 'dead-letter', A.Manage, 'Replay a dead-lettered delivery (same delivery id)'),
  entry('webhooks', 'event', A.Create, 'Submit an event for delivery to the tenant’s subscriptions (producers outside the broker)'),
];

/** The global permission catalog (spec §2): unique codes, sorted, the same on every instance. */
export const PERMISSION_CATALOG: readonly CatalogPermission[] = [
  ...AUTHORIZATION_PERMISSIONS,
  ...OPERATIONS_PERMISSIONS,
  ...CASES_PERMISSIONS,
  ...WORKFLOW_PERMISSIONS,
  ...WEBHOOKS_PERMISSIONS,
].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

export interface PlatformFeature {
  code: string;
  description: string;
  defaultEnabled: boolean;
}

/**
 * Feature definitions seeded with the catalog (spec §1 Feature; codes unique globally). The modules
 * they gate are mapped in authz-decision's Feature evaluator (`FEATURE_BY_MODULE`). A fresh platform
 * has every feature on; tenants and operators turn them off.
 */
export const PLATFORM_FEATURES: readonly PlatformFeature[] = [
  { code: 'chat', description: 'Chat module', defaultEnabled: true },
  { code: 'mcp.access', description: 'AI clients through the MCP gateway', defaultEnabled: true },
  { code: 'reporting', description: 'Reporting module', defaultEnabled: true },
  { code: 'tickets', description: 'Tickets module', defaultEnabled: true },
  { code: 'workflow', description: 'Workflow module', defaultEnabled: true },
  {
    code: 'workflow.runtime',
    description: 'Workflow runtime: every workflow write and background job (workflow-engine checks it itself)',
    defaultEnabled: true,
  },
];

/**
 * Which feature gates which module (lower-case module code → feature code). Spec §1 names tickets,
 * chat, workflow and reporting; the MCP module is gated by `mcp.access`. Every other module is not
 * feature-gated. The decision core's Feature evaluator and the caller's menu read this one map.
 */
export const FEATURE_BY_MODULE: Readonly<Record<string, string>> = {
  tickets: 'tickets',
  chat: 'chat',
  workflow: 'workflow',
  reporting: 'reporting',
  mcp: 'mcp.access',
};

export function featureOfModule(module: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(FEATURE_BY_MODULE, module) ? FEATURE_BY_MODULE[module] : undefined;
}

/** The modules a feature switches off when disabled, sorted. */
export function modulesOfFeature(featureCode: string): string[] {
  return Object.entries(FEATURE_BY_MODULE)
    .filter(([, feature]) => feature === featureCode)
    .map(([module]) => module)
    .sort();
}

/** Tenant and subject the seed binds to `platform-admin` (ARCHITECTURE.md, Operator interface). */
export const SEEDED_TENANT = 'default';
/**
 * The tenant whose roles may hold platform-level permissions: the platform operators' own. It is
 * the seeded tenant, where `platform-admin` lives.
 */
export const PLATFORM_TENANT = SEEDED_TENANT;

const PLATFORM_PERMISSION_CODES: ReadonlySet<string> = new Set(PERMISSION_CATALOG.filter((p) => p.level === 'platform').map((p) => p.code));

/** Whether `code` acts beyond one tenant: grantable only in, and permitted only to callers of, `PLATFORM_TENANT`. */
export function isPlatformPermission(code: string): boolean {
  return PLATFORM_PERMISSION_CODES.has(code);
}

/** The catalog permissions a tenant's own administrator may hold: every one but the platform-level ones. */
export const TENANT_LEVEL_PERMISSIONS: readonly CatalogPermission[] = PERMISSION_CATALOG.filter((p) => p.level === 'tenant');
export const SEEDED_ADMIN_SUBJECT = 'admin';
export const PLATFORM_ADMIN_ROLE = 'platform-admin';
/** The role a tenant's bootstrap creates: every tenant-level permission (`TENANT_LEVEL_PERMISSIONS`). */
export const TENANT_ADMIN_ROLE = 'tenant-admin';

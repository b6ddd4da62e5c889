/**
 * A deterministic policy workload for the decision-core benchmarks: tenants, roles with permission
 * codes, user bindings, ABAC rules and requests, all drawn from one seeded PRNG so every run (and
 * every engine in a run) sees exactly the same policy and the same requests.
 *
 * The workload keeps Feature, ReBAC and AppScope out of the answer on purpose: no module has a
 * feature mapping (`FEATURE_BY_MODULE`), no resource type carries relations (`REBAC_RESOURCE_TYPES`)
 * and every caller is a user. Only RBAC (roles) and ABAC (rules) decide, so an engine without those
 * concepts (casbin) can be asked the same question.
 */
import { AUTHORIZATION_ACTIONS, AuthorizationAction, permissionCode, PermissionCode } from '@lp/contracts';
import { AbacCondition, AbacField, AbacOperator, AbacRule, AbacVerdict, DataScopeSetting } from '@lp/service/authz-decision';

export interface WorkloadSizes {
  tenants: number;
  roles: number;
  rolePermissionRows: number;
  users: number;
  abacRules: number;
  requests: number;
}

export const FULL_WORKLOAD: WorkloadSizes = { tenants: 10, roles: 500, rolePermissionRows: 10_000, users: 1_000, abacRules: 100, requests: 100_000 };

/** Twenty modules, none of them feature-gated (tickets, chat, workflow, reporting, mcp are left out). */
export const WORKLOAD_MODULES: readonly string[] = [
  'crm',
  'docs',
  'matters',
  'calendar',
  'contacts',
  'invoicing',
  'timesheets',
  'expenses',
  'library',
  'compliance',
  'intake',
  'conflicts',
  'trust',
  'portal',
  'esign',
  'knowledge',
  'analytics',
  'admin',
  'hr',
  'procurement',
];

/** Ten resource types, none of them with ReBAC relations (case, client, billing are left out). */
export const WORKLOAD_RESOURCE_TYPES: readonly string[] = [
  'record',
  'note',
  'document',
  'entry',
  'template',
  'folder',
  'report',
  'task',
  'comment',
  'attachment',
];

export const WORKLOAD_STATUSES: readonly string[] = ['Draft', 'Open', 'Pending', 'Closed', 'Archived'];
export const WORKLOAD_SENSITIVITIES: readonly string[] = ['Public', 'Internal', 'Confidential', 'Restricted'];
export const AMOUNT_MAX = 100_000;

export interface WorkloadRole {
  tenantId: string;
  /** Tenant-local key (spec §2). */
  name: string;
  dataScope: DataScopeSetting;
  permissions: PermissionCode[];
}

export interface WorkloadUser {
  tenantId: string;
  subject: string;
  roles: string[];
}

export interface WorkloadAbacRule {
  tenantId: string;
  rule: AbacRule;
}

/** One request: who, in which tenant, what, and the resource facts (absent facts are `undefined`). */
export interface WorkloadRequest {
  subject: string;
  tenantId: string;
  module: string;
  resourceType: string;
  action: AuthorizationAction;
  resourceId: string;
  status?: string;
  amount?: number;
  sensitivity?: string;
}

export interface PolicyWorkload {
  seed: number;
  sizes: WorkloadSizes;
  tenants: string[];
  roles: WorkloadRole[];
  users: WorkloadUser[];
  abacRules: WorkloadAbacRule[];
  requests: WorkloadRequest[];
}

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG; enough for reproducible workloads. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Draw {
  constructor(private readonly next: () => number) {}
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** `count` distinct items (count ≤ items.length). */
  distinct<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, count);
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function abacCondition(draw: Draw): AbacCondition {
  const roll = draw.int(1, 100);
  if (roll <= 35) {
    const operator = draw.pick([AbacOperator.Equals, AbacOperator.NotEquals, AbacOperator.In, AbacOperator.NotIn]);
    const value = operator === AbacOperator.In || operator === AbacOperator.NotIn ? draw.distinct(WORKLOAD_STATUSES, 2) : draw.pick(WORKLOAD_STATUSES);
    return { field: AbacField.ResourceStatus, operator, value };
  }
  if (roll <= 70) {
    const operator = draw.pick([AbacOperator.GreaterThan, AbacOperator.GreaterThanOrEqual, AbacOperator.LessThan, AbacOperator.LessThanOrEqual]);
    return { field: AbacField.ResourceAmount, operator, value: draw.int(1, 9) * 10_000 };
  }
  if (roll <= 95) {
    const operator = draw.pick([AbacOperator.Equals, AbacOperator.NotEquals, AbacOperator.In]);
    const value = operator === AbacOperator.In ? draw.distinct(WORKLOAD_SENSITIVITIES, 2) : draw.pick(WORKLOAD_SENSITIVITIES);
    return { field: AbacField.ResourceSensitivity, operator, value };
  }
  // Presence tests: a rule that fires when the guard could not load a fact, or only when it could.
  const field = draw.pick([AbacField.ResourceStatus, AbacField.ResourceAmount, AbacField.ResourceSensitivity]);
  return { field, operator: draw.pick([AbacOperator.Exists, AbacOperator.NotExists]) };
}

/**
 * Rules spread over the tenants; priorities 1–20 so ties (broken by id) occur; 40% Allow, 60% Deny;
 * 90% carry an action filter of 1–3 actions; 30% a module filter (half of those also a resource
 * type); 1–3 conditions on status, amount or sensitivity.
 */
function abacRule(draw: Draw, index: number): AbacRule {
  const rule: AbacRule = {
    id: `abac-${pad(index, 4)}`,
    priority: draw.int(1, 20),
    verdict: draw.chance(0.4) ? AbacVerdict.Allow : AbacVerdict.Deny,
    conditions: Array.from({ length: draw.int(1, 3) }, () => abacCondition(draw)),
  };
  if (draw.chance(0.9)) rule.actions = draw.distinct(AUTHORIZATION_ACTIONS, draw.int(1, 3));
  if (draw.chance(0.3)) {
    rule.modules = [draw.pick(WORKLOAD_MODULES)];
    if (draw.chance(0.5)) rule.resourceTypes = [draw.pick(WORKLOAD_RESOURCE_TYPES)];
  }
  return rule;
}

export function generatePolicyWorkload(sizes: WorkloadSizes = FULL_WORKLOAD, seed = 0x5eed): PolicyWorkload {
  const draw = new Draw(mulberry32(seed));
  const tenants = Array.from({ length: sizes.tenants }, (_, i) => `tenant-${pad(i + 1, 2)}`);

  // Roles round-robin over the tenants; role-permission rows drawn until the total is reached,
  // never the same code twice in one role.
  const roles: WorkloadRole[] = Array.from({ length: sizes.roles }, (_, i) => ({
    tenantId: tenants[i % tenants.length]!,
    name: `role-${pad(Math.floor(i / tenants.length) + 1, 3)}`,
    dataScope: draw.pick<DataScopeSetting>(['tenant', 'office', 'own']),
    permissions: [],
  }));
  const catalogSize = WORKLOAD_MODULES.length * WORKLOAD_RESOURCE_TYPES.length * AUTHORIZATION_ACTIONS.length;
  if (sizes.rolePermissionRows > sizes.roles * catalogSize) throw new Error('more role-permission rows than distinct (role, code) pairs');
  const held = roles.map(() => new Set<PermissionCode>());
  for (let row = 0; row < sizes.rolePermissionRows;) {
    const r = draw.int(0, roles.length - 1);
    const code = permissionCode(draw.pick(WORKLOAD_MODULES), draw.pick(WORKLOAD_RESOURCE_TYPES), draw.pick(AUTHORIZATION_ACTIONS));
    if (held[r]!.has(code)) continue;
    held[r]!.add(code);
    roles[r]!.permissions.push(code);
    row++;
  }

  const rolesByTenant = new Map<string, WorkloadRole[]>(tenants.map((t) => [t, roles.filter((r) => r.tenantId === t)]));
  const users: WorkloadUser[] = Array.from({ length: sizes.users }, (_, i) => {
    const tenantId = draw.pick(tenants);
    const own = rolesByTenant.get(tenantId)!;
    return { tenantId, subject: `user-${pad(i + 1, 4)}`, roles: draw.distinct(own, Math.min(own.length, draw.int(1, 3))).map((r) => r.name) };
  });

  const abacRules: WorkloadAbacRule[] = Array.from({ length: sizes.abacRules }, (_, i) => ({ tenantId: draw.pick(tenants), rule: abacRule(draw, i + 1) }));

  // Requests: 60% ask for a code one of the user's roles holds (so RBAC permits often), the rest
  // any code of the catalog; 5% come in through another tenant than the user's (no roles there).
  // Each fact is missing 3% of the time; 15% of amounts sit exactly on a possible rule threshold.
  const roleByKey = new Map(roles.map((r) => [`${r.tenantId}/${r.name}`, r]));
  const actionByLower = new Map(AUTHORIZATION_ACTIONS.map((a) => [a.toLowerCase(), a]));
  const requests: WorkloadRequest[] = Array.from({ length: sizes.requests }, (): WorkloadRequest => {
    const user = draw.pick(users);
    const tenantId = draw.chance(0.05) ? draw.pick(tenants) : user.tenantId;
    let module: string;
    let resourceType: string;
    let action: AuthorizationAction;
    const role = roleByKey.get(`${user.tenantId}/${draw.pick(user.roles)}`);
    if (role && role.permissions.length > 0 && draw.chance(0.6)) {
      const [m, r, a] = draw.pick(role.permissions).split('.');
      [module, resourceType, action] = [m!, r!, actionByLower.get(a!)!];
    } else {
      [module, resourceType, action] = [draw.pick(WORKLOAD_MODULES), draw.pick(WORKLOAD_RESOURCE_TYPES), draw.pick(AUTHORIZATION_ACTIONS)];
    }
    const request: WorkloadRequest = { subject: user.subject, tenantId, module, resourceType, action, resourceId: `res-${draw.int(1, 1_000_000)}` };
    if (!draw.chance(0.03)) request.status = draw.pick(WORKLOAD_STATUSES);
    if (!draw.chance(0.03)) request.amount = draw.chance(0.15) ? draw.int(1, 9) * 10_000 : draw.int(0, AMOUNT_MAX * 100) / 100;
    if (!draw.chance(0.03)) request.sensitivity = draw.pick(WORKLOAD_SENSITIVITIES);
    return request;
  });

  return { seed, sizes, tenants, roles, users, abacRules, requests };
}

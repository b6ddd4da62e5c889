import type { ApiClient, Page } from '../../api/client';
import { ApiProblem } from '../../api/problem';

/**
 * The policy-management routes the Access screen calls (all under `/api/authorization`, see
 * libs/services/policy-management/docs/roles.md, abac-rules.md and features.md), their shapes, and
 * the react-query keys of what they answer.
 */
export const BASE = '/api/authorization';

/** Page size of the screen's lists; the API takes 1..100. */
export const PAGE_SIZE = 20;
/** Page size when the screen needs a whole list (a role's permissions). */
const FULL_PAGE = 100;
/** Bound on the pages read to gather a whole list (100 × 50 = 5 000 rows): the screen never loops on. */
const MAX_PAGES = 50;

export const ROLE_DATA_SCOPES = ['tenant', 'office', 'own', 'none'] as const;
export type RoleDataScope = (typeof ROLE_DATA_SCOPES)[number];

export interface Role {
  id: string;
  name: string;
  description: string | null;
  dataScope: RoleDataScope;
  createdAt: string;
  updatedAt: string;
  /** A seeded role the tenant is administered through: the API refuses its rename and deletion. */
  protected: boolean;
  /** Codes the API refuses to revoke from it (empty unless protected). */
  requiredPermissionCodes: string[];
}

/** Body of POST /roles and PUT /roles/{roleId}. */
export interface SaveRole {
  name: string;
  description?: string | null;
  dataScope?: RoleDataScope;
}

export interface RolePermission {
  permissionId: string;
  permissionCode: string;
  module: string;
  resource: string;
  action: string;
  grantedAt: string;
}

/** A subject holding a role (`GET /roles/{roleId}/members`). */
export interface RoleMember {
  subject: string;
  assignedAt: string;
  assignedBy: string;
}

export interface PermissionTreeAction {
  action: string;
  permissionId: string;
  code: string;
  description: string | null;
}

export interface PermissionTree {
  modules: Array<{ module: string; resources: Array<{ resource: string; actions: PermissionTreeAction[] }> }>;
}

export interface Feature {
  code: string;
  description: string;
  globalDefault: boolean;
  tenantOverride: boolean | null;
  effective: boolean;
}

export type AbacScalar = string | number | boolean;

export interface AbacCondition {
  field: string | number;
  operator: string | number;
  value?: AbacScalar | AbacScalar[];
}

export interface AbacRule {
  id: string;
  name: string;
  description: string | null;
  priority: number;
  verdict: string | number;
  conditions: AbacCondition[];
  actions: string[];
  modules: string[];
  resourceTypes: string[];
  obligations: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Body of POST /abac-rules and PUT /abac-rules/{ruleId} (a PUT replaces the whole rule). */
export interface SaveAbacRule {
  name: string;
  description: string | null;
  priority: number;
  verdict: string;
  conditions: AbacCondition[];
  actions: string[];
  modules: string[];
  resourceTypes: string[];
  obligations: string[];
  enabled: boolean;
}

export const accessKeys = {
  all: ['access'] as const,
  roles: () => ['access', 'roles'] as const,
  rolePage: (pageIndex: number, search: string) => ['access', 'roles', 'page', pageIndex, search] as const,
  role: (roleId: string) => ['access', 'roles', 'one', roleId] as const,
  rolePermissions: (roleId: string) => ['access', 'role-permissions', roleId] as const,
  permissionTree: () => ['access', 'permission-tree'] as const,
  roleMembers: (roleId: string) => ['access', 'role-members', roleId] as const,
  roleMemberPage: (roleId: string, pageIndex: number, search: string) => ['access', 'role-members', roleId, pageIndex, search] as const,
  features: () => ['access', 'features'] as const,
  abacRules: () => ['access', 'abac-rules'] as const,
  abacRulePage: (pageIndex: number) => ['access', 'abac-rules', pageIndex] as const,
  abacRule: (ruleId: string) => ['access', 'abac-rules', 'one', ruleId] as const,
};

/** A path segment of a user-supplied value (subject ids may hold anything but control characters). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** Every row of a paged route, read 100 at a time (bounded by MAX_PAGES). */
export async function readAll<T>(api: ApiClient, path: string, signal?: AbortSignal): Promise<{ items: T[]; totalCount: number; complete: boolean }> {
  const items: T[] = [];
  let totalCount = 0;
  for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex++) {
    const page = await api.get<Page<T>>(path, { pageIndex, pageSize: FULL_PAGE }, signal);
    items.push(...page.items);
    totalCount = page.totalCount;
    if (page.items.length < FULL_PAGE || items.length >= page.totalCount) return { items, totalCount, complete: true };
  }
  return { items, totalCount, complete: items.length >= totalCount };
}

/** A page of the tenant's roles by name; `search` keeps those whose name contains it (case-insensitive, the API's `?search=`). */
export function listRoles(api: ApiClient, pageIndex: number, search: string, signal?: AbortSignal): Promise<Page<Role>> {
  return api.get<Page<Role>>(`${BASE}/roles`, { pageIndex, pageSize: PAGE_SIZE, search: search.trim() || undefined }, signal);
}

/** One role by id (`GET /roles/{roleId}`); `null` when the tenant has no such role (the API's 404). */
export async function getRole(api: ApiClient, roleId: string, signal?: AbortSignal): Promise<Role | null> {
  try {
    return await api.get<Role>(`${BASE}/roles/${segment(roleId)}`, undefined, signal);
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 404) return null;
    throw error;
  }
}

export function createRole(api: ApiClient, body: SaveRole): Promise<Role> {
  return api.post<Role>(`${BASE}/roles`, body);
}

export function updateRole(api: ApiClient, roleId: string, body: SaveRole): Promise<Role> {
  return api.put<Role>(`${BASE}/roles/${segment(roleId)}`, body);
}

export function deleteRole(api: ApiClient, roleId: string): Promise<void> {
  return api.delete<void>(`${BASE}/roles/${segment(roleId)}`);
}

export function permissionTree(api: ApiClient, signal?: AbortSignal): Promise<PermissionTree> {
  return api.get<PermissionTree>(`${BASE}/permissions/tree`, undefined, signal);
}

export function rolePermissions(api: ApiClient, roleId: string, signal?: AbortSignal) {
  return readAll<RolePermission>(api, `${BASE}/roles/${segment(roleId)}/permissions`, signal);
}

export function grantPermission(api: ApiClient, roleId: string, permissionId: string): Promise<void> {
  return api.post<void>(`${BASE}/roles/${segment(roleId)}/permissions`, { permissionId });
}

export function revokePermission(api: ApiClient, roleId: string, permissionId: string): Promise<void> {
  return api.delete<void>(`${BASE}/roles/${segment(roleId)}/permissions/${segment(permissionId)}`);
}

/** A page of the subjects holding the role, by subject; `search` keeps those whose subject contains it (case-insensitive). */
export function listRoleMembers(api: ApiClient, roleId: string, pageIndex: number, search: string, signal?: AbortSignal): Promise<Page<RoleMember>> {
  return api.get<Page<RoleMember>>(`${BASE}/roles/${segment(roleId)}/members`, { pageIndex, pageSize: PAGE_SIZE, search }, signal);
}

export function assignRole(api: ApiClient, subject: string, roleId: string): Promise<void> {
  return api.post<void>(`${BASE}/users/${segment(subject)}/roles/${segment(roleId)}`);
}

export function revokeRole(api: ApiClient, subject: string, roleId: string): Promise<void> {
  return api.delete<void>(`${BASE}/users/${segment(subject)}/roles/${segment(roleId)}`);
}

export function listFeatures(api: ApiClient, signal?: AbortSignal): Promise<{ items: Feature[] }> {
  return api.get<{ items: Feature[] }>(`${BASE}/features`, undefined, signal);
}

export function setFeature(api: ApiClient, code: string, enabled: boolean, scope: 'tenant' | 'global'): Promise<Feature> {
  return api.put<Feature>(`${BASE}/features/${segment(code)}`, { enabled, scope });
}

export function clearFeatureOverride(api: ApiClient, code: string): Promise<void> {
  return api.delete<void>(`${BASE}/features/${segment(code)}/override`);
}

export function listAbacRules(api: ApiClient, pageIndex: number, signal?: AbortSignal): Promise<Page<AbacRule>> {
  return api.get<Page<AbacRule>>(`${BASE}/abac-rules`, { pageIndex, pageSize: PAGE_SIZE }, signal);
}

/** One rule by id (`GET /abac-rules/{ruleId}`); `null` when the tenant has no such rule (the API's 404). */
export async function getAbacRule(api: ApiClient, ruleId: string, signal?: AbortSignal): Promise<AbacRule | null> {
  try {
    return await api.get<AbacRule>(`${BASE}/abac-rules/${segment(ruleId)}`, undefined, signal);
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 404) return null;
    throw error;
  }
}

export function createAbacRule(api: ApiClient, body: SaveAbacRule): Promise<AbacRule> {
  return api.post<AbacRule>(`${BASE}/abac-rules`, body);
}

export function updateAbacRule(api: ApiClient, ruleId: string, body: SaveAbacRule): Promise<AbacRule> {
  return api.put<AbacRule>(`${BASE}/abac-rules/${segment(ruleId)}`, body);
}

export function deleteAbacRule(api: ApiClient, ruleId: string): Promise<void> {
  return api.delete<void>(`${BASE}/abac-rules/${segment(ruleId)}`);
}

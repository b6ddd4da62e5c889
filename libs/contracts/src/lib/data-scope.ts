/**
 * What part of a tenant's data a permitted caller may see. Resolved by authz-decision from role
 * settings and relations; turned into query predicates by the guard library, always together with
 * the tenant predicate.
 *
 * - `tenant`: every row of the tenant.
 * - `office`: rows whose office is one of `officeIds`.
 * - `own`: rows owned by `subject`.
 * - `instances`: only the listed resource ids (from ReBAC relations or sharing).
 * - `none`: no rows (a permit for an action that reads no collection, e.g. a create).
 */
export type DataScope =
  | { kind: 'tenant'; tenantId: string }
  | { kind: 'office'; tenantId: string; officeIds: string[] }
  | { kind: 'own'; tenantId: string; subject: string }
  | { kind: 'instances'; tenantId: string; resourceType: string; resourceIds: string[] }
  | { kind: 'none'; tenantId: string };

export type DataScopeKind = DataScope['kind'];
export const DATA_SCOPE_KINDS: readonly DataScopeKind[] = ['tenant', 'office', 'own', 'instances', 'none'];

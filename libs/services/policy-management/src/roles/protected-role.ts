import { PLATFORM_ADMIN_ROLE, SEEDED_TENANT, TENANT_ADMIN_ROLE } from '@lp/contracts';

/**
 * The seeded roles a tenant is administered through: `platform-admin` of the platform tenant (the
 * operator's, ARCHITECTURE.md, Operator interface) and `tenant-admin` of every other tenant (made by
 * its bootstrap). They keep their name, cannot be deleted, and keep `ADMINISTRABLE_PERMISSIONS`.
 */
export function isProtectedRole(tenantId: string, name: string): boolean {
  return tenantId === SEEDED_TENANT ? name === PLATFORM_ADMIN_ROLE : name === TENANT_ADMIN_ROLE;
}

/**
 * What a protected role may not lose (docs/services/policy-management.md, Protected roles): with
 * these its holders can see the roles and the catalog, grant any permission back to a role and bind
 * a role to a subject, so every other permission can be restored by whoever holds the role.
 */
export const ADMINISTRABLE_PERMISSIONS: readonly string[] = [
  'authorization.permission.view',
  'authorization.role.view',
  'authorization.role-permission.view',
  'authorization.role-permission.grant',
  'authorization.user-role.view',
  'authorization.user-role.assign',
];

/** The codes `name` of `tenantId` must keep: none for a role that is not protected. */
export function requiredPermissionsOf(tenantId: string, name: string): readonly string[] {
  return isProtectedRole(tenantId, name) ? ADMINISTRABLE_PERMISSIONS : [];
}

import { DomainError, isPlatformPermission, PLATFORM_TENANT } from '@lp/contracts';

/**
 * Some codes named in a request are platform-level (they act on every tenant) and the request would
 * give them to a role or subject of a tenant other than the platform tenant. A tenant's role
 * administrator could otherwise grant a role `authorization.feature-default.update` and switch a
 * feature off for every tenant.
 */
export class PermissionPlatformOnlyError extends DomainError {
  constructor(readonly codes: string[]) {
    super('Authorization.PermissionPlatformOnly', 422, `Platform-level permissions can be granted only in the platform tenant: ${codes.join(', ')}.`, {
      permissionCodes: codes.map((c) => `${c} is platform-level; only roles of tenant "${PLATFORM_TENANT}" may hold it`),
    });
  }
}

/** Throws `PermissionPlatformOnlyError` when `tenantId` is not the platform tenant and any code is platform-level. */
export function assertGrantableInTenant(tenantId: string, codes: readonly string[]): void {
  if (tenantId === PLATFORM_TENANT) return;
  const platformOnly = codes.filter(isPlatformPermission);
  if (platformOnly.length > 0) throw new PermissionPlatformOnlyError(platformOnly);
}

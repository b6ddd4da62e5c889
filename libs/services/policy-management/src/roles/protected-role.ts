import { PLATFORM_ADMIN_ROLE, SEEDED_TENANT } from '@lp/contracts';

/** The seeded role the operator reaches the platform with (ARCHITECTURE.md, Operator interface). */
export function isProtectedRole(tenantId: string, name: string): boolean {
  return tenantId === SEEDED_TENANT && name === PLATFORM_ADMIN_ROLE;
}

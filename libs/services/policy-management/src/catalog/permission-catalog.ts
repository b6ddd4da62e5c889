import { CatalogPermission, PERMISSION_CATALOG } from '@lp/contracts';
import type { DeclaredPermission } from '@lp/authz-guard';

/**
 * The catalog to seed: the contract constants (every service's permissions, including services not
 * built yet) plus anything this app declares through `@Authorize`. The catalog spec fails when a
 * declaration is missing from the constants, so in a green build the second part adds nothing; it
 * is kept so a missing constant can never make a declared route unreachable.
 */
export function catalogToSeed(declared: readonly DeclaredPermission[]): CatalogPermission[] {
  const byCode = new Map(PERMISSION_CATALOG.map((p) => [p.code, p]));
  for (const d of declared) {
    if (!byCode.has(d.code)) {
      byCode.set(d.code, {
        code: d.code,
        module: d.module,
        resource: d.resource,
        action: d.action,
        description: `Declared by ${d.declaredBy.join(', ')}`,
        level: 'tenant',
      });
    }
  }
  return [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

import { useQuery } from '@tanstack/react-query';
import type { Page } from '../../api/client';
import { useSession } from '../../api/session';

interface PermissionTree {
  modules: Array<{ module: string; resources: Array<{ resource: string; actions: Array<{ action: string; code: string }> }> }>;
}

export interface CatalogHints {
  modules: string[];
  resourceTypes(module: string): string[];
  permissionCodes: string[];
  roleNames: string[];
  featureCodes: string[];
}

/**
 * Suggestions for the simulator's fields from the catalog, the roles and the features, each read
 * only when the user may read it (hints only: the fields stay free text and the API judges).
 */
export function useCatalogHints(): CatalogHints {
  const { api, canAny } = useSession();
  const tree = useQuery({
    queryKey: ['why', 'hints', 'permission-tree'],
    queryFn: ({ signal }) => api.get<PermissionTree>('/api/authorization/permissions/tree', undefined, signal),
    enabled: canAny(['authorization.permission.view']),
    staleTime: 300_000,
  });
  const roles = useQuery({
    queryKey: ['why', 'hints', 'roles'],
    queryFn: ({ signal }) => api.get<Page<{ name: string }>>('/api/authorization/roles', { pageIndex: 0, pageSize: 100 }, signal),
    enabled: canAny(['authorization.role.view']),
    staleTime: 30_000,
  });
  const features = useQuery({
    queryKey: ['why', 'hints', 'features'],
    queryFn: ({ signal }) => api.get<{ items: Array<{ code: string }> }>('/api/authorization/features', undefined, signal),
    enabled: canAny(['authorization.feature.view']),
    staleTime: 300_000,
  });
  const modules = tree.data?.modules ?? [];
  return {
    modules: modules.map((m) => m.module),
    resourceTypes: (module) => (modules.find((m) => m.module === module.trim())?.resources ?? modules.flatMap((m) => m.resources)).map((r) => r.resource),
    permissionCodes: modules.flatMap((m) => m.resources.flatMap((r) => r.actions.map((a) => a.code))),
    roleNames: roles.data?.items.map((r) => r.name) ?? [],
    featureCodes: features.data?.items.map((f) => f.code) ?? [],
  };
}

/** A `<datalist>` of suggestions for an input's `list` attribute. */
export function Suggestions({ id, values }: { id: string; values: string[] }) {
  return (
    <datalist id={id}>
      {[...new Set(values)].map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
}

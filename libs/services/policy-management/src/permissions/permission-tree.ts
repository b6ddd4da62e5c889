/** One catalog permission as the tree and the menu need it. */
export interface CatalogRow {
  id: string;
  code: string;
  module: string;
  resource: string;
  action: string;
  description: string | null;
}

export interface PermissionTreeAction {
  action: string;
  permissionId: string;
  code: string;
  description: string | null;
}

export interface PermissionTreeResource {
  resource: string;
  actions: PermissionTreeAction[];
}

export interface PermissionTreeModule {
  module: string;
  resources: PermissionTreeResource[];
}

export interface PermissionTree {
  modules: PermissionTreeModule[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Groups catalog permissions module → resource → action, each level sorted by name. With `held`,
 * only the permissions whose code is in it are kept, and modules or resources left empty are
 * dropped: that is the caller's menu.
 */
export function buildPermissionTree(rows: readonly CatalogRow[], held?: ReadonlySet<string>): PermissionTree {
  const modules = new Map<string, Map<string, PermissionTreeAction[]>>();
  for (const row of rows) {
    if (held && !held.has(row.code)) continue;
    const resources = modules.get(row.module) ?? new Map<string, PermissionTreeAction[]>();
    modules.set(row.module, resources);
    const actions = resources.get(row.resource) ?? [];
    resources.set(row.resource, actions);
    actions.push({ action: row.action, permissionId: row.id, code: row.code, description: row.description });
  }
  return {
    modules: [...modules.entries()]
      .sort(([a], [b]) => byText(a, b))
      .map(([module, resources]) => ({
        module,
        resources: [...resources.entries()]
          .sort(([a], [b]) => byText(a, b))
          .map(([resource, actions]) => ({ resource, actions: actions.sort((a, b) => byText(a.action, b.action)) })),
      })),
  };
}

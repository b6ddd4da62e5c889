import { buildPermissionTree, CatalogRow } from './permission-tree';

const row = (module: string, resource: string, action: string): CatalogRow => ({
  id: `${module}-${resource}-${action}`,
  code: `${module}.${resource}.${action.toLowerCase()}`,
  module,
  resource,
  action,
  description: null,
});

describe('buildPermissionTree', () => {
  const rows = [
    row('tickets', 'ticket', 'View'),
    row('authorization', 'role', 'View'),
    row('authorization', 'role', 'Create'),
    row('authorization', 'abac-rule', 'View'),
  ];

  it('groups module → resource → action, each level sorted', () => {
    const tree = buildPermissionTree(rows);
    expect(tree.modules.map((m) => m.module)).toEqual(['authorization', 'tickets']);
    expect(tree.modules[0]!.resources.map((r) => r.resource)).toEqual(['abac-rule', 'role']);
    expect(tree.modules[0]!.resources[1]!.actions).toEqual([
      { action: 'Create', permissionId: 'authorization-role-Create', code: 'authorization.role.create', description: null },
      { action: 'View', permissionId: 'authorization-role-View', code: 'authorization.role.view', description: null },
    ]);
  });

  it('keeps only held codes and drops emptied branches', () => {
    const tree = buildPermissionTree(rows, new Set(['authorization.role.view', 'not.in.catalog']));
    expect(tree).toEqual({
      modules: [
        {
          module: 'authorization',
          resources: [
            { resource: 'role', actions: [{ action: 'View', permissionId: 'authorization-role-View', code: 'authorization.role.view', description: null }] },
          ],
        },
      ],
    });
    expect(buildPermissionTree(rows, new Set())).toEqual({ modules: [] });
  });
});

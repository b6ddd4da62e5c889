import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, ProblemMessage } from '../../ui/kit';
import { accessKeys, grantPermission, PermissionTree, PermissionTreeAction, permissionTree, revokePermission, Role, rolePermissions } from './access-api';

interface Change {
  permission: PermissionTreeAction;
  grant: boolean;
}

/**
 * A role's permissions on the catalog tree (`GET /permissions/tree`: module → resource → action):
 * each permission is a checkbox, checked when the role holds it (`GET /roles/{id}/permissions`, all
 * pages); ticking grants it (`POST /roles/{id}/permissions`), clearing revokes it (`DELETE
 * /roles/{id}/permissions/{permissionId}`). A checkbox is busy until the API has answered and the
 * role's permissions are read again, so what it shows is what the API holds.
 */
export function PermissionTreeEditor({ role }: { role: Role }) {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const [onlyGranted, setOnlyGranted] = useState(false);
  /** Permissions being changed, with the state asked for: the checkbox shows it until the API has answered. */
  const [pending, setPending] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [status, setStatus] = useState<string>();

  const tree = useQuery({ queryKey: accessKeys.permissionTree(), queryFn: ({ signal }) => permissionTree(api, signal), staleTime: 5 * 60_000 });
  const granted = useQuery({ queryKey: accessKeys.rolePermissions(role.id), queryFn: ({ signal }) => rolePermissions(api, role.id, signal) });
  const grantedIds = useMemo(() => new Set(granted.data?.items.map((permission) => permission.permissionId)), [granted.data]);

  const change = useMutation({
    mutationFn: ({ permission, grant }: Change) =>
      grant ? grantPermission(api, role.id, permission.permissionId) : revokePermission(api, role.id, permission.permissionId),
    onMutate: ({ permission, grant }) => {
      setStatus(undefined);
      setPending((current) => new Map(current).set(permission.permissionId, grant));
    },
    onSuccess: async (_nothing, { permission, grant }) => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.rolePermissions(role.id) });
      setStatus(grant ? `Granted ${permission.code} to ${role.name}.` : `Revoked ${permission.code} from ${role.name}.`);
    },
    onSettled: (_result, _error, { permission }) => {
      setPending((current) => {
        const next = new Map(current);
        next.delete(permission.permissionId);
        return next;
      });
    },
  });

  const mayGrant = canAny(['authorization.role-permission.grant']);
  const mayRevoke = canAny(['authorization.role-permission.revoke']);
  // Modules start folded (the catalog is long); a filter or "Only granted" unfolds what they keep.
  const expanded = filter.trim() !== '' || onlyGranted;
  const shown = useMemo(() => visibleTree(tree.data, filter, onlyGranted ? grantedIds : undefined), [tree.data, filter, onlyGranted, grantedIds]);
  const total = tree.data?.modules.reduce((sum, module) => sum + module.resources.reduce((count, resource) => count + resource.actions.length, 0), 0) ?? 0;

  return (
    <section aria-labelledby="permissions-heading" className="access-section">
      <h3 id="permissions-heading">Permissions</h3>
      {(tree.isPending || granted.isPending) && <Busy label="Loading the permission tree…" />}
      <ProblemMessage error={tree.error} title="The permission catalog could not be read" />
      <ProblemMessage error={granted.error} title="The role's permissions could not be read" />
      {tree.data && granted.data && (
        <>
          <p>
            <strong>{grantedIds.size}</strong> of {total} permissions granted to {role.name}.{!mayGrant && !mayRevoke && ' You may not change them.'}
          </p>
          <div className="form-row">
            <div className="field">
              <label htmlFor="permission-filter">Filter permissions</label>
              <input id="permission-filter" type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="e.g. role.view" />
            </div>
            <label className="access-check">
              <input type="checkbox" checked={onlyGranted} onChange={(event) => setOnlyGranted(event.target.checked)} /> Only granted
            </label>
          </div>
          <p role="status" aria-live="polite" className={status ? 'success' : 'visually-hidden'}>
            {status}
          </p>
          <ProblemMessage error={change.error} title="The permission was not changed" />
          {shown.length === 0 && <p>No permission matches.</p>}
          <ul className="perm-tree" aria-label={`Permission tree of ${role.name}`}>
            {shown.map((module) => {
              const actions = module.resources.flatMap((resource) => resource.actions);
              const held = actions.filter((action) => grantedIds.has(action.permissionId)).length;
              return (
                <li key={`${module.module}-${expanded ? 'open' : 'folded'}`}>
                  <details open={expanded || undefined}>
                    <summary>
                      <span className="perm-module">{module.module}</span> <span className="perm-count">({held} granted)</span>
                    </summary>
                    <ul>
                      {module.resources.map((resource) => (
                        <li key={resource.resource} className="perm-resource">
                          <span className="perm-resource-name">{resource.resource}</span>
                          <ul className="perm-actions">
                            {resource.actions.map((action) => {
                              const isGranted = grantedIds.has(action.permissionId);
                              const asked = pending.get(action.permissionId);
                              const busy = asked !== undefined;
                              // The API refuses this revoke (409 Authorization.RoleProtected): not offered.
                              const kept = isGranted && role.requiredPermissionCodes.includes(action.code);
                              const id = `perm-${action.permissionId}`;
                              return (
                                <li key={action.permissionId}>
                                  <input
                                    id={id}
                                    type="checkbox"
                                    checked={asked ?? isGranted}
                                    disabled={busy || kept || (isGranted ? !mayRevoke : !mayGrant)}
                                    aria-describedby={`${id}-about`}
                                    aria-busy={busy || undefined}
                                    onChange={(event) => change.mutate({ permission: action, grant: event.target.checked })}
                                  />{' '}
                                  <label htmlFor={id}>
                                    <code>{action.code}</code>
                                  </label>{' '}
                                  <span id={`${id}-about`} className="perm-about">
                                    {action.action}
                                    {action.description ? ` · ${action.description}` : ''}
                                    {kept ? ' · kept: the tenant is administered through this role' : ''}
                                    {busy ? ' · saving…' : ''}
                                  </span>
                                </li>
                              );
                            })}
                          </ul>
                        </li>
                      ))}
                    </ul>
                  </details>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

/** The tree cut down to the permissions whose code or description contains `filter` (and, if given, that are granted). */
function visibleTree(tree: PermissionTree | undefined, filter: string, only: ReadonlySet<string> | undefined): PermissionTree['modules'] {
  if (!tree) return [];
  const wanted = filter.trim().toLocaleLowerCase();
  const keep = (action: PermissionTreeAction) =>
    (only === undefined || only.has(action.permissionId)) &&
    (wanted === '' || action.code.toLocaleLowerCase().includes(wanted) || (action.description ?? '').toLocaleLowerCase().includes(wanted));
  return tree.modules
    .map((module) => ({
      module: module.module,
      resources: module.resources
        .map((resource) => ({ resource: resource.resource, actions: resource.actions.filter(keep) }))
        .filter((resource) => resource.actions.length > 0),
    }))
    .filter((module) => module.resources.length > 0);
}

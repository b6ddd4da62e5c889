import { FormEvent, useEffect, useRef, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { accessKeys, createRole, deleteRole, listRoles, Role, SaveRole } from './access-api';
import { ConfirmButton } from './confirm-button';
import { RoleForm } from './role-form';

/**
 * Roles of the caller's tenant: the paged list, a name search, a new role, and deletion. A role's
 * name leads to its detail (permissions and members).
 */
export function RolesTab() {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const pageIndex = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const search = params.get('q') ?? '';
  const [searchText, setSearchText] = useState(search);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string>();
  const newRoleButton = useRef<HTMLButtonElement>(null);

  useEffect(() => setSearchText(search), [search]);

  const page = useQuery({
    queryKey: accessKeys.rolePage(pageIndex, search),
    queryFn: ({ signal }) => listRoles(api, pageIndex, search, signal),
    placeholderData: keepPreviousData,
  });

  const create = useMutation({
    mutationFn: (body: SaveRole) => createRole(api, body),
    onSuccess: async (role) => {
      queryClient.setQueryData(accessKeys.role(role.id), role);
      await queryClient.invalidateQueries({ queryKey: accessKeys.roles() });
      void navigate(`/access/roles/${role.id}`, { state: { notice: `Role “${role.name}” created. Grant it permissions and assign it below.` } });
    },
  });
  const remove = useMutation({
    mutationFn: (role: Role) => deleteRole(api, role.id).then(() => role),
    onSuccess: async (role) => {
      queryClient.removeQueries({ queryKey: accessKeys.role(role.id) });
      await queryClient.invalidateQueries({ queryKey: accessKeys.roles() });
      setNotice(`Role “${role.name}” deleted, with its permissions and bindings.`);
    },
  });

  const setPage = (index: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (index > 0) next.set('page', String(index));
      else next.delete('page');
      return next;
    });
  const runSearch = (event: FormEvent) => {
    event.preventDefault();
    setParams(() => {
      const next = new URLSearchParams();
      if (searchText.trim()) next.set('q', searchText.trim());
      return next;
    });
  };
  const closeCreate = () => {
    setCreating(false);
    create.reset();
    requestAnimationFrame(() => newRoleButton.current?.focus());
  };

  const shown = page.data;
  const loading = page.isPending;
  const error = page.error;

  return (
    <section aria-labelledby="roles-heading">
      <div className="access-toolbar">
        <h2 id="roles-heading">Roles</h2>
        {canAny(['authorization.role.create']) && !creating && (
          <button ref={newRoleButton} type="button" onClick={() => setCreating(true)}>
            New role
          </button>
        )}
      </div>
      {creating && (
        <div className="access-card">
          <h3>New role</h3>
          <RoleForm mode="create" saving={create.isPending} error={create.error} onSave={(body) => create.mutate(body)} onCancel={closeCreate} />
        </div>
      )}
      <form className="form-row access-search" role="search" aria-label="Roles" onSubmit={runSearch}>
        <div className="field">
          <label htmlFor="role-search">Find roles by name</label>
          <input id="role-search" type="search" value={searchText} onChange={(event) => setSearchText(event.target.value)} />
        </div>
        <button type="submit" className="secondary">
          Find
        </button>
        {search !== '' && (
          <button type="button" className="secondary" onClick={() => setParams(new URLSearchParams())}>
            Show all roles
          </button>
        )}
      </form>
      {notice && (
        <p className="success" role="status">
          {notice}
        </p>
      )}
      {loading && <Busy label={search ? `Looking for roles named like “${search}”…` : 'Loading roles…'} />}
      <ProblemMessage error={error} title="The roles could not be read" />
      <ProblemMessage error={remove.error} title="The role was not deleted" />
      {shown && (
        <>
          <table className="access-table">
            <caption className="visually-hidden">{search ? `Roles whose name contains “${search}”` : 'Roles of this tenant'}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Data scope</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.items.length === 0 && (
                <tr>
                  <td colSpan={5}>{search ? `No role name contains “${search}”.` : 'No roles yet.'}</td>
                </tr>
              )}
              {shown.items.map((role) => (
                <tr key={role.id}>
                  <td>
                    <Link to={`/access/roles/${role.id}`} onClick={() => queryClient.setQueryData(accessKeys.role(role.id), role)}>
                      {role.name}
                    </Link>
                  </td>
                  <td>{role.description ?? '—'}</td>
                  <td>{role.dataScope}</td>
                  <td>{formatTime(role.updatedAt)}</td>
                  <td className="access-actions">
                    {role.protected ? (
                      <span className="access-note">Seeded: kept</span>
                    ) : (
                      canAny(['authorization.role.delete']) && (
                        <ConfirmButton
                          label="Delete"
                          name={`Delete role ${role.name}`}
                          question={`Delete role “${role.name}” with its permissions and bindings?`}
                          confirmLabel={`Yes, delete ${role.name}`}
                          busy={remove.isPending && remove.variables?.id === role.id}
                          busyLabel="Deleting…"
                          onConfirm={() => remove.mutate(role)}
                        />
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={shown} onPage={setPage} label="Roles" />
        </>
      )}
    </section>
  );
}

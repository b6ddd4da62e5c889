import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, formatTime, ProblemMessage } from '../../ui/kit';
import { accessKeys, deleteRole, getRole, Role, SaveRole, updateRole } from './access-api';
import { ConfirmButton } from './confirm-button';
import { PermissionTreeEditor } from './permission-tree';
import { RoleForm } from './role-form';
import { RoleMembers } from './role-members';

/** One role: its fields (edit, delete), its permissions as the catalog tree, and its members. */
export function RoleDetail() {
  const { roleId = '' } = useParams();
  const { api } = useSession();
  const location = useLocation();
  const arrivedWith = (location.state as { notice?: string } | null)?.notice;
  const role = useQuery({
    queryKey: accessKeys.role(roleId),
    queryFn: ({ signal }) => getRole(api, roleId, signal),
    staleTime: 60_000,
  });

  return (
    <section aria-labelledby="role-heading">
      <p className="access-back">
        <Link to="/access/roles">← All roles</Link>
      </p>
      {role.isPending && <Busy label="Loading the role…" />}
      <ProblemMessage error={role.error} title="The role could not be read" />
      {role.data === null && (
        <div className="notice" role="note">
          <h2 id="role-heading">No such role</h2>
          <p>No role of this tenant has the id {roleId}; it may have been deleted.</p>
        </div>
      )}
      {role.data && <RoleBody key={role.data.id} role={role.data} arrivedWith={arrivedWith} />}
    </section>
  );
}

function RoleBody({ role, arrivedWith }: { role: Role; arrivedWith?: string }) {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState(arrivedWith);
  const editButton = useRef<HTMLButtonElement>(null);

  const save = useMutation({
    mutationFn: (body: SaveRole) => updateRole(api, role.id, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(accessKeys.role(saved.id), saved);
      setEditing(false);
      setNotice(`Role “${saved.name}” saved.`);
      requestAnimationFrame(() => editButton.current?.focus());
      // The lists and searches hold the old name; this role's own entry is already the API's answer.
      await queryClient.invalidateQueries({ queryKey: accessKeys.roles(), predicate: (query) => query.queryKey[2] !== 'one' });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteRole(api, role.id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: accessKeys.role(role.id) });
      await queryClient.invalidateQueries({ queryKey: accessKeys.roles() });
      void navigate('/access/roles');
    },
  });

  return (
    <>
      <div className="access-toolbar">
        <h2 id="role-heading">
          Role <span className="role-name">{role.name}</span>
        </h2>
        {canAny(['authorization.role.update']) && !editing && (
          <button ref={editButton} type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit role
          </button>
        )}
        {/* A protected role's deletion is refused by the API (409): not offered. */}
        {canAny(['authorization.role.delete']) && !role.protected && (
          <ConfirmButton
            label="Delete role"
            question={`Delete role “${role.name}” with its permissions and bindings?`}
            confirmLabel={`Yes, delete ${role.name}`}
            busy={remove.isPending}
            busyLabel="Deleting…"
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
      {notice && (
        <p className="success" role="status">
          {notice}
        </p>
      )}
      <ProblemMessage error={remove.error} title="The role was not deleted" />
      {editing ? (
        <div className="access-card">
          <RoleForm
            mode="update"
            nameLocked={role.protected}
            initial={{ name: role.name, description: role.description ?? '', dataScope: role.dataScope }}
            saving={save.isPending}
            error={save.error}
            onSave={(body) => save.mutate(body)}
            onCancel={() => {
              setEditing(false);
              save.reset();
              requestAnimationFrame(() => editButton.current?.focus());
            }}
          />
        </div>
      ) : (
        <dl className="access-facts">
          <dt>Description</dt>
          <dd>{role.description ?? '—'}</dd>
          <dt>Data scope</dt>
          <dd>{role.dataScope}</dd>
          <dt>Created</dt>
          <dd>{formatTime(role.createdAt)}</dd>
          <dt>Updated</dt>
          <dd>{formatTime(role.updatedAt)}</dd>
          <dt>Id</dt>
          <dd>
            <code>{role.id}</code>
          </dd>
        </dl>
      )}
      <PermissionTreeEditor role={role} />
      <RoleMembers role={role} />
    </>
  );
}

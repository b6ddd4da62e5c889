import { FormEvent, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, Field, ProblemMessage } from '../../ui/kit';
import { accessKeys, assignRole, revokeRole, Role, userRoles } from './access-api';
import { ConfirmButton } from './confirm-button';
import { FieldErrors, mergeErrors, useApiFieldErrors } from './form-errors';

const SUBJECT_MAX = 255;
// C0, DEL and C1 control characters, which the API refuses in a subject id.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The API's own rule for a user id in a path (`requireUserId`): 1–255 characters, no control characters. */
function validateSubject(subject: string): FieldErrors {
  if (subject.length === 0) return { userId: ['Enter the subject id of a user (the `sub` of their token).'] };
  if (subject.length > SUBJECT_MAX) return { userId: [`The subject id is ${subject.length} characters long; at most ${SUBJECT_MAX} are allowed.`] };
  if (CONTROL.test(subject)) return { userId: ['The subject id must not contain control characters.'] };
  return {};
}

/**
 * Who holds the role. The API answers a subject's roles (`GET /users/{subject}/roles`) but has no
 * route listing a role's holders, so members are found by subject id: assigning one
 * (`POST /users/{subject}/roles/{roleId}`) or looking one up adds them to the table, which shows
 * whether they hold this role (and what else they hold) and revokes it
 * (`DELETE /users/{subject}/roles/{roleId}`).
 */
export function RoleMembers({ role }: { role: Role }) {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState('');
  const [checked, setChecked] = useState(false);
  const [subjects, setSubjects] = useState<string[]>([]);
  const [status, setStatus] = useState<string>();

  const remember = (who: string) => setSubjects((current) => [who, ...current.filter((other) => other !== who)]);

  const assign = useMutation({
    mutationFn: (who: string) => assignRole(api, who, role.id).then(() => who),
    onMutate: () => setStatus(undefined),
    onSuccess: async (who) => {
      remember(who);
      await queryClient.invalidateQueries({ queryKey: accessKeys.userRoles(who) });
      setStatus(`Assigned ${role.name} to ${who}.`);
      setSubject('');
      setChecked(false);
    },
  });

  const own = checked ? validateSubject(subject) : {};
  const api400 = useApiFieldErrors(assign.error, ['userId']);
  const errors = mergeErrors(own, api400.byField);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const action = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') ?? 'assign';
    setChecked(true);
    if (Object.keys(validateSubject(subject)).length > 0) return;
    if (action === 'lookup') {
      assign.reset();
      remember(subject);
      setStatus(undefined);
    } else {
      assign.mutate(subject);
    }
  };

  return (
    <section aria-labelledby="members-heading" className="access-section">
      <h3 id="members-heading">Members</h3>
      <p className="field-help">
        The platform lists the roles of a user, not the users of a role: find members by their subject id. Users assigned or looked up here are listed below.
      </p>
      <form className="form-row" onSubmit={submit} noValidate aria-label={`Members of ${role.name}`}>
        <Field label="Subject id" errors={errors.userId} hint="The user's subject (sub) from the identity provider, e.g. alice.">
          {(id, describedBy) => (
            <input
              id={id}
              name="userId"
              autoComplete="off"
              aria-describedby={describedBy}
              aria-invalid={errors.userId ? true : undefined}
              value={subject}
              onChange={(event) => {
                api400.edited('userId');
                setSubject(event.target.value);
              }}
            />
          )}
        </Field>
        {canAny(['authorization.user-role.assign']) && (
          <button type="submit" value="assign" disabled={assign.isPending}>
            {assign.isPending ? 'Assigning…' : 'Assign role'}
          </button>
        )}
        <button type="submit" value="lookup" className="secondary">
          Look up
        </button>
      </form>
      <ProblemMessage error={api400.problem} title="The role was not assigned" />
      <p role="status" aria-live="polite" className={status ? 'success' : 'visually-hidden'}>
        {status}
      </p>
      {subjects.length > 0 && (
        <table className="access-table">
          <caption className="visually-hidden">Subjects looked up for {role.name}</caption>
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Holds {role.name}</th>
              <th scope="col">All their roles</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {subjects.map((who) => (
              <MemberRow key={who} subject={who} role={role} onRevoked={(message) => setStatus(message)} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function MemberRow({ subject, role, onRevoked }: { subject: string; role: Role; onRevoked: (message: string) => void }) {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const roles = useQuery({ queryKey: accessKeys.userRoles(subject), queryFn: ({ signal }) => userRoles(api, subject, signal) });
  const revoke = useMutation({
    mutationFn: () => revokeRole(api, subject, role.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.userRoles(subject) });
      onRevoked(`Revoked ${role.name} from ${subject}.`);
    },
  });
  const holds = roles.data?.items.some((held) => held.id === role.id);
  return (
    <tr>
      <th scope="row">{subject}</th>
      <td>{roles.isPending ? <Busy label="Reading…" /> : roles.error ? '?' : holds ? <strong className="verdict-permit">Yes</strong> : 'No'}</td>
      <td>
        <ProblemMessage error={roles.error} title={`The roles of ${subject} could not be read`} />
        {roles.data && (roles.data.items.length === 0 ? 'none' : roles.data.items.map((held) => held.name).join(', '))}
        {roles.data && !roles.data.complete && ' …'}
      </td>
      <td className="access-actions">
        <ProblemMessage error={revoke.error} title="The role was not revoked" />
        {holds && canAny(['authorization.user-role.revoke']) && (
          <ConfirmButton
            label="Revoke"
            name={`Revoke ${role.name} from ${subject}`}
            question={`Revoke ${role.name} from ${subject}?`}
            confirmLabel={`Yes, revoke from ${subject}`}
            busy={revoke.isPending}
            busyLabel="Revoking…"
            onConfirm={() => revoke.mutate()}
          />
        )}
      </td>
    </tr>
  );
}

import { FormEvent, useEffect, useRef, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { accessKeys, assignRole, listRoleMembers, revokeRole, Role } from './access-api';
import { ConfirmButton } from './confirm-button';
import { FieldErrors, mergeErrors, useApiFieldErrors } from './form-errors';

const SUBJECT_MAX = 255;
// C0, DEL and C1 control characters, which the API refuses in a subject id.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The address parameters of the members list (the role detail's own path has no other list). */
const PAGE_PARAM = 'memberPage';
const SEARCH_PARAM = 'memberSearch';

/** The API's own rule for a user id in a path (`requireUserId`): 1–255 characters, no control characters. */
function validateSubject(subject: string): FieldErrors {
  if (subject.length === 0) return { userId: ['Enter the subject id of a user (the `sub` of their token).'] };
  if (subject.length > SUBJECT_MAX) return { userId: [`The subject id is ${subject.length} characters long; at most ${SUBJECT_MAX} are allowed.`] };
  if (CONTROL.test(subject)) return { userId: ['The subject id must not contain control characters.'] };
  return {};
}

/**
 * Who holds the role: the paged members list (`GET /roles/{roleId}/members`, by subject, with a
 * subject search), assigning it to a subject (`POST /users/{subject}/roles/{roleId}`) and revoking it
 * from a member (`DELETE /users/{subject}/roles/{roleId}`). The list's page and search live in the
 * address.
 */
export function RoleMembers({ role }: { role: Role }) {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const pageIndex = Math.max(0, Number(params.get(PAGE_PARAM) ?? 0) || 0);
  const search = params.get(SEARCH_PARAM) ?? '';
  const [searchText, setSearchText] = useState(search);
  const [subject, setSubject] = useState('');
  const [checked, setChecked] = useState(false);
  const [status, setStatus] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => setSearchText(search), [search]);

  const members = useQuery({
    queryKey: accessKeys.roleMemberPage(role.id, pageIndex, search),
    queryFn: ({ signal }) => listRoleMembers(api, role.id, pageIndex, search, signal),
    placeholderData: keepPreviousData,
  });

  /** A new search starts at its first page; `replace` corrects the address without a history entry. */
  const setList = (next: { pageIndex?: number; search?: string }, replace = false) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        const index = next.pageIndex ?? 0;
        if (index > 0) updated.set(PAGE_PARAM, String(index));
        else updated.delete(PAGE_PARAM);
        const text = next.search ?? search;
        if (text) updated.set(SEARCH_PARAM, text);
        else updated.delete(SEARCH_PARAM);
        return updated;
      },
      { replace },
    );

  // A revoke can empty the last page (or an address name a page past the end): show the last one there is.
  const page = members.data;
  useEffect(() => {
    if (page && page.items.length === 0 && page.pageIndex > 0) setList({ pageIndex: Math.max(0, Math.ceil(page.totalCount / page.pageSize) - 1) }, true);
  }, [page]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: accessKeys.roleMembers(role.id) });

  const assign = useMutation({
    mutationFn: (who: string) => assignRole(api, who, role.id).then(() => who),
    onMutate: () => setStatus(undefined),
    onSuccess: async (who) => {
      setStatus(`Assigned ${role.name} to ${who}.`);
      setSubject('');
      setChecked(false);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (who: string) => revokeRole(api, who, role.id).then(() => who),
    onMutate: () => setStatus(undefined),
    onSuccess: async (who) => {
      setStatus(`Revoked ${role.name} from ${who}.`);
      // The member's row (and its buttons) goes: keep the keyboard user in the section.
      heading.current?.focus();
      await refresh();
    },
  });

  const own = checked ? validateSubject(subject) : {};
  const api400 = useApiFieldErrors(assign.error, ['userId']);
  const errors = mergeErrors(own, api400.byField);

  const submitAssign = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(validateSubject(subject)).length > 0) return;
    assign.mutate(subject);
  };
  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setList({ search: searchText.trim() });
  };

  return (
    <section aria-labelledby="members-heading" className="access-section">
      <h3 id="members-heading" ref={heading} tabIndex={-1}>
        Members
      </h3>
      {canAny(['authorization.user-role.assign']) && (
        <form className="form-row" onSubmit={submitAssign} noValidate aria-label={`Assign ${role.name}`}>
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
          <button type="submit" disabled={assign.isPending}>
            {assign.isPending ? 'Assigning…' : 'Assign role'}
          </button>
        </form>
      )}
      <ProblemMessage error={api400.problem} title="The role was not assigned" />
      <ProblemMessage error={revoke.error} title={`The role was not revoked from ${revoke.variables ?? 'the member'}`} />
      <p role="status" aria-live="polite" className={status ? 'success' : 'visually-hidden'}>
        {status}
      </p>
      <form className="form-row access-search" role="search" aria-label={`Members of ${role.name}`} onSubmit={submitSearch}>
        <div className="field">
          <label htmlFor="member-search">Find members by subject</label>
          <input id="member-search" type="search" maxLength={SUBJECT_MAX} value={searchText} onChange={(event) => setSearchText(event.target.value)} />
        </div>
        <button type="submit" className="secondary">
          Find
        </button>
        {search !== '' && (
          <button type="button" className="secondary" onClick={() => setList({ search: '' })}>
            Show all members
          </button>
        )}
      </form>
      {members.isPending && <Busy label={`Loading the members of ${role.name}…`} />}
      <ProblemMessage error={members.error} title="The members could not be read" />
      {page && (
        <>
          <table className="access-table" aria-busy={members.isFetching || undefined}>
            <caption className="visually-hidden">{search ? `Members of ${role.name} whose subject contains “${search}”` : `Members of ${role.name}`}</caption>
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Assigned</th>
                <th scope="col">Assigned by</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.length === 0 && (
                <tr>
                  <td colSpan={4}>{search ? `No member's subject contains “${search}”.` : `Nobody holds ${role.name} yet.`}</td>
                </tr>
              )}
              {page.items.map((member) => (
                <tr key={member.subject}>
                  <th scope="row">{member.subject}</th>
                  <td>{formatTime(member.assignedAt)}</td>
                  <td>{member.assignedBy}</td>
                  <td className="access-actions">
                    {canAny(['authorization.user-role.revoke']) && (
                      <ConfirmButton
                        label="Revoke"
                        name={`Revoke ${role.name} from ${member.subject}`}
                        question={`Revoke ${role.name} from ${member.subject}?`}
                        confirmLabel={`Yes, revoke from ${member.subject}`}
                        busy={revoke.isPending && revoke.variables === member.subject}
                        busyLabel="Revoking…"
                        onConfirm={() => revoke.mutate(member.subject)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} onPage={(index) => setList({ pageIndex: index })} label="Members" />
        </>
      )}
    </section>
  );
}

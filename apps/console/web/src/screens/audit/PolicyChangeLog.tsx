import { useId } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../api/client';
import { asProblem } from '../../api/problem';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { CHANGES, PolicyChange, TARGET_TYPES } from './audit-api';
import { AuditFilterForm } from './FilterParts';
import { useUrlFilters } from './url-filters';

const FILTERS = ['change', 'actor', 'targetType', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function json(value: unknown): string {
  return value === null || value === undefined ? '—' : JSON.stringify(value, null, 2);
}

/**
 * The policy change log: who changed which policy record and how (before / after), newest first,
 * filtered by change, actor, target type and time window (exact matches, as the route takes them).
 */
export function PolicyChangeLog() {
  const { api } = useSession();
  const { filters, pageIndex, pageSize, setFilters, setPage, setPageSize } = useUrlFilters(FILTERS);
  const changes = useQuery({
    queryKey: ['audit', 'changes', filters, pageIndex, pageSize],
    queryFn: ({ signal }) => api.get<Page<PolicyChange>>(CHANGES, { ...filters, pageIndex, pageSize }, signal),
    placeholderData: keepPreviousData,
  });
  const problem = changes.error ? asProblem(changes.error) : undefined;

  return (
    <>
      <ChangeFilters applied={filters} onApply={setFilters} problem={problem} pageSize={pageSize} onPageSize={setPageSize} />
      {changes.isFetching ? <Busy label="Loading changes…" /> : null}
      <ProblemMessage error={changes.error} />
      {changes.data ? (
        changes.data.items.length === 0 ? (
          <p className="notice">No change matches these filters.</p>
        ) : (
          <table className="audit-table">
            <caption>Policy changes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Occurred</th>
                <th scope="col">Actor</th>
                <th scope="col">Change</th>
                <th scope="col">Target</th>
                <th scope="col">Before and after</th>
              </tr>
            </thead>
            <tbody>
              {changes.data.items.map((change) => (
                <tr key={change.id} data-testid="change-row">
                  <td>{formatTime(change.occurredAt)}</td>
                  <td>
                    {change.actor}
                    {change.actorKind !== 'user' ? <span className="audit-tag">{change.actorKind}</span> : null}
                  </td>
                  <td>
                    <code className="audit-change">{change.change}</code>
                    {change.tenantId === null ? <span className="audit-tag">global</span> : null}
                  </td>
                  <td>
                    {change.targetType} <code>{change.targetId}</code>
                  </td>
                  <td>
                    <details>
                      <summary>Show</summary>
                      <div className="audit-diff">
                        <div>
                          <strong>Before</strong>
                          <pre tabIndex={0}>{json(change.before)}</pre>
                        </div>
                        <div>
                          <strong>After</strong>
                          <pre tabIndex={0}>{json(change.after)}</pre>
                        </div>
                      </div>
                      {change.correlationId ? <small>correlation {change.correlationId}</small> : null}
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <Pager page={changes.data} onPage={setPage} label="Policy changes" />
    </>
  );
}

function ChangeFilters(props: {
  applied: Filters;
  onApply: (filters: Filters) => void;
  problem: ReturnType<typeof asProblem> | undefined;
  pageSize: number;
  onPageSize: (size: number) => void;
}) {
  const { problem } = props;
  const listId = useId();
  const types = (
    <datalist id={`${listId}-types`}>
      {TARGET_TYPES.map((type) => (
        <option key={type} value={type} />
      ))}
    </datalist>
  );
  return (
    <AuditFilterForm {...props} label="Filter policy changes" empty={{ change: '', actor: '', targetType: '', from: '', to: '' }} after={types}>
      {(draft, setDraft) => (
        <>
          <Field label="Change" errors={problem?.field('change') ?? []} hint="Exact, e.g. role.created">
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                value={draft.change}
                onChange={(e) => setDraft({ ...draft, change: e.target.value })}
                autoComplete="off"
              />
            )}
          </Field>
          <Field label="Actor" errors={problem?.field('actor') ?? []}>
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                value={draft.actor}
                onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
                autoComplete="off"
              />
            )}
          </Field>
          <Field label="Target type" errors={problem?.field('targetType') ?? []}>
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                list={`${listId}-types`}
                value={draft.targetType}
                onChange={(e) => setDraft({ ...draft, targetType: e.target.value })}
                autoComplete="off"
              />
            )}
          </Field>
        </>
      )}
    </AuditFilterForm>
  );
}

import { FormEvent, ReactNode } from 'react';
import type { ApiProblem } from '../../api/problem';
import { Field } from '../../ui/kit';
import { useSyncedDraft } from '../../ui/use-synced-draft';
import { PAGE_SIZES } from './audit-api';
import { fromLocalInput, toLocalInput } from './url-filters';

/** From (inclusive) and to (exclusive) as local date-times; the API's `from` / `to` errors beside them. */
export function TimeRangeFields({
  from,
  to,
  onChange,
  problem,
}: {
  from: string;
  to: string;
  onChange: (range: { from?: string; to?: string }) => void;
  problem: ApiProblem | undefined;
}) {
  return (
    <>
      <Field label="From" errors={problem?.field('from') ?? []} hint="Inclusive, your local time">
        {(id, describedBy) => (
          <input id={id} aria-describedby={describedBy} type="datetime-local" value={from} onChange={(e) => onChange({ from: e.target.value })} />
        )}
      </Field>
      <Field label="To" errors={problem?.field('to') ?? []} hint="Exclusive">
        {(id, describedBy) => (
          <input id={id} aria-describedby={describedBy} type="datetime-local" value={to} onChange={(e) => onChange({ to: e.target.value })} />
        )}
      </Field>
    </>
  );
}

/** How many rows a page holds (the API takes 1 to 100). */
export function PageSizeSelect({ value, onChange, problem }: { value: number; onChange: (size: number) => void; problem: ApiProblem | undefined }) {
  return (
    <Field label="Rows per page" errors={problem?.field('pageSize') ?? []}>
      {(id, describedBy) => (
        <select id={id} aria-describedby={describedBy} value={value} onChange={(e) => onChange(Number(e.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * A filter form of an audit list: the list's own fields (`children`, given the draft), then the time
 * window and the page size. The draft follows the address; Apply sends it with the times in UTC,
 * Clear sends `empty`.
 */
export function AuditFilterForm<F extends { from: string; to: string }>({
  label,
  applied,
  empty,
  onApply,
  problem,
  pageSize,
  onPageSize,
  children,
  after,
}: {
  label: string;
  applied: F;
  empty: F;
  onApply: (filters: F) => void;
  problem: ApiProblem | undefined;
  pageSize: number;
  onPageSize: (size: number) => void;
  children: (draft: F, setDraft: (draft: F) => void) => ReactNode;
  /** Rendered after the fields (a datalist, say). */
  after?: ReactNode;
}) {
  const [draft, setDraft] = useSyncedDraft(applied, JSON.stringify(applied), (filters) => ({
    ...filters,
    from: toLocalInput(filters.from),
    to: toLocalInput(filters.to),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, from: fromLocalInput(draft.from), to: fromLocalInput(draft.to) });
  };
  return (
    <form className="audit-filters" onSubmit={submit} noValidate aria-label={label}>
      <div className="form-row">
        {children(draft, setDraft)}
        <TimeRangeFields from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} problem={problem} />
        <PageSizeSelect value={pageSize} onChange={onPageSize} problem={problem} />
      </div>
      {after}
      <div className="audit-filter-actions">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={() => onApply(empty)}>
          Clear filters
        </button>
      </div>
    </form>
  );
}

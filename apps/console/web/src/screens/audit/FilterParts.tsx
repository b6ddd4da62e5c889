import type { ApiProblem } from '../../api/problem';
import { Field } from '../../ui/kit';
import { PAGE_SIZES } from './audit-api';

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

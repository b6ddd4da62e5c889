import { ReactNode, useId } from 'react';
import { asProblem } from '../api/problem';
import type { Page } from '../api/client';

/** A problem from the API, in its own words (`detail`), with its stable code for support. */
export function ProblemMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const problem = asProblem(error);
  const fields = Object.entries(problem.fieldErrors);
  return (
    <div role="alert" className="problem">
      <strong>{title ?? (problem.status === 403 ? 'Not allowed' : 'Something went wrong')}</strong>
      <p className="problem-detail">{problem.detail}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join('; ')}
            </li>
          ))}
        </ul>
      )}
      <small>
        {problem.code}
        {problem.status ? ` · HTTP ${problem.status}` : ''}
        {problem.correlationId ? ` · correlation ${problem.correlationId}` : ''}
      </small>
    </div>
  );
}

/** Shown while a request is in flight: screen readers hear it, and it never blocks the page. */
export function Busy({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="busy" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/** A labelled form field; `errors` are the API's (or the form's own) messages for it. */
export function Field({
  label,
  errors = [],
  hint,
  children,
}: {
  label: string;
  errors?: string[];
  hint?: ReactNode;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const describedBy = errors.length > 0 || hint ? `${id}-help` : undefined;
  return (
    <div className={errors.length > 0 ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {describedBy && (
        <div id={describedBy} className="field-help">
          {hint && <div>{hint}</div>}
          {errors.map((message) => (
            <div key={message} className="field-error">
              {message}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** Previous / next over a `Page` answer; the page index is zero-based as in the API. */
export function Pager({ page, onPage, label }: { page: Page<unknown> | undefined; onPage: (pageIndex: number) => void; label: string }) {
  if (!page) return null;
  const pages = Math.max(1, Math.ceil(page.totalCount / page.pageSize));
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={() => onPage(page.pageIndex - 1)} disabled={page.pageIndex <= 0}>
        Previous
      </button>
      <span>
        Page {page.pageIndex + 1} of {pages} · {page.totalCount} in all
      </span>
      <button type="button" onClick={() => onPage(page.pageIndex + 1)} disabled={page.pageIndex + 1 >= pages}>
        Next
      </button>
    </nav>
  );
}

export function ScreenTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <header className="screen-title">
      <h1>{children}</h1>
      {actions && <div className="screen-actions">{actions}</div>}
    </header>
  );
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

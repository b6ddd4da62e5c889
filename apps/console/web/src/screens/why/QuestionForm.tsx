import { FormEvent, useId, useState } from 'react';
import type { ApiProblem } from '../../api/problem';
import { Field } from '../../ui/kit';
import { CatalogHints, Suggestions } from './catalog-hints';
import { ACTIONS, FACT_FIELDS, Question, whyParams } from './question';
import { useSyncedDraft } from '../../ui/use-synced-draft';

const FACT_LABELS: Record<(typeof FACT_FIELDS)[number], string> = {
  status: 'Status',
  amount: 'Amount',
  sensitivity: 'Sensitivity',
  owner: 'Owner subject',
  officeId: 'Office id',
};

/**
 * The question: a subject of the caller's tenant, an action, a resource. It is a draft until
 * "Ask" puts it into the URL; the API's field errors (`subject`, `request.resource.module`, ...) are
 * shown next to their fields.
 */
export function QuestionForm({
  asked,
  hints,
  problem,
  busy,
  onAsk,
}: {
  asked: Question;
  hints: CatalogHints;
  problem: ApiProblem | undefined;
  busy: boolean;
  onAsk: (question: Question) => void;
}) {
  const [draft, setDraft] = useSyncedDraft(asked, whyParams(asked).toString());
  const [missing, setMissing] = useState<Partial<Record<keyof Question, string>>>({});
  const listId = useId();
  const set = (field: keyof Question) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const errors = (field: keyof Question, path: string): string[] => [...(missing[field] ? [missing[field]] : []), ...(problem?.field(path) ?? [])];
  // Open at first when the question states facts; after that it is the user's to open and close.
  const [factsOpen] = useState(() => FACT_FIELDS.some((field) => asked[field] !== ''));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const required: Partial<Record<keyof Question, string>> = {};
    if (!draft.subject.trim()) required.subject = 'Name the subject to ask about.';
    if (!draft.module.trim()) required.module = 'Name the module (the first part of a permission code).';
    if (!draft.resourceType.trim()) required.resourceType = 'Name the resource type (the second part of a permission code).';
    setMissing(required);
    if (Object.keys(required).length === 0) onAsk(draft);
  };

  return (
    <form className="why-question" onSubmit={submit} noValidate aria-label="Question">
      <div className="form-row">
        <Field label="Subject" errors={errors('subject', 'subject')} hint="A user of your tenant">
          {(id, describedBy) => (
            <input id={id} aria-describedby={describedBy} value={draft.subject} onChange={(e) => set('subject')(e.target.value)} autoComplete="off" />
          )}
        </Field>
        <Field label="Action" errors={errors('action', 'request.action')}>
          {(id, describedBy) => (
            <select id={id} aria-describedby={describedBy} value={draft.action} onChange={(e) => set('action')(e.target.value)}>
              {ACTIONS.map((action) => (
                <option key={action}>{action}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Module" errors={errors('module', 'request.resource.module')}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              list={`${listId}-modules`}
              value={draft.module}
              onChange={(e) => set('module')(e.target.value)}
              placeholder="cases"
              autoComplete="off"
            />
          )}
        </Field>
        <Field label="Resource type" errors={errors('resourceType', 'request.resource.resourceType')}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              list={`${listId}-types`}
              value={draft.resourceType}
              onChange={(e) => set('resourceType')(e.target.value)}
              placeholder="case"
              autoComplete="off"
            />
          )}
        </Field>
        <Field label="Resource id" errors={errors('resourceId', 'request.resource.resourceId')} hint="Optional">
          {(id, describedBy) => (
            <input id={id} aria-describedby={describedBy} value={draft.resourceId} onChange={(e) => set('resourceId')(e.target.value)} autoComplete="off" />
          )}
        </Field>
      </div>
      <Suggestions id={`${listId}-modules`} values={hints.modules} />
      <Suggestions id={`${listId}-types`} values={hints.resourceTypes(draft.module)} />
      <details className="why-facts" open={factsOpen}>
        <summary>Resource facts (optional: a real request loads them server-side, a simulation states them)</summary>
        <div className="form-row">
          {FACT_FIELDS.map((field) => (
            <Field key={field} label={FACT_LABELS[field]} errors={errors(field, `request.resource.${field}`)}>
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  value={draft[field]}
                  onChange={(e) => set(field)(e.target.value)}
                  inputMode={field === 'amount' ? 'decimal' : undefined}
                  autoComplete="off"
                />
              )}
            </Field>
          ))}
        </div>
      </details>
      <button type="submit" disabled={busy}>
        {busy ? 'Asking…' : 'Ask'}
      </button>
    </form>
  );
}

import { FormEvent, useId, useState } from 'react';
import type { ApiProblem } from '../../api/problem';
import { Field } from '../../ui/kit';
import { CatalogHints, Suggestions } from './catalog-hints';
import { ACTIONS, CALLER_KINDS, FACT_FIELDS, Question, whyParams } from './question';
import { useSyncedDraft } from '../../ui/use-synced-draft';

const FACT_LABELS: Record<(typeof FACT_FIELDS)[number], string> = {
  status: 'Status',
  amount: 'Amount',
  sensitivity: 'Sensitivity',
  owner: 'Owner subject',
  officeId: 'Office id',
};

const CALLER_LABELS: Record<(typeof CALLER_KINDS)[number], string> = {
  '': 'A user',
  application: 'An application',
  delegated: 'Someone acting for a user',
};

const SUBJECT_HINTS: Record<string, string> = {
  '': 'A user of your tenant',
  application: "The application's client id",
  delegated: 'The user acted for',
};

/**
 * The question: a caller of the caller's tenant (a user, an application with its scopes, or someone
 * acting for a user), an action, a resource. It is a draft until
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
    if (draft.callerKind === 'delegated' && !draft.actor.trim()) required.actor = 'Name who acts for the subject.';
    if (!draft.module.trim()) required.module = 'Name the module (the first part of a permission code).';
    if (!draft.resourceType.trim()) required.resourceType = 'Name the resource type (the second part of a permission code).';
    setMissing(required);
    if (Object.keys(required).length === 0) onAsk(draft);
  };

  return (
    <form className="why-question" onSubmit={submit} noValidate aria-label="Question">
      <div className="form-row">
        <Field label="Caller" errors={errors('callerKind', 'callerKind')}>
          {(id, describedBy) => (
            <select id={id} aria-describedby={describedBy} value={draft.callerKind} onChange={(e) => set('callerKind')(e.target.value)}>
              {CALLER_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {CALLER_LABELS[kind]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Subject" errors={errors('subject', 'subject')} hint={SUBJECT_HINTS[draft.callerKind] ?? SUBJECT_HINTS['']}>
          {(id, describedBy) => (
            <input id={id} aria-describedby={describedBy} value={draft.subject} onChange={(e) => set('subject')(e.target.value)} autoComplete="off" />
          )}
        </Field>
        {draft.callerKind === 'delegated' ? (
          <>
            <Field label="Actor" errors={errors('actor', 'actor')} hint="Who acts for the subject (the token's act.sub)">
              {(id, describedBy) => (
                <input id={id} aria-describedby={describedBy} value={draft.actor} onChange={(e) => set('actor')(e.target.value)} autoComplete="off" />
              )}
            </Field>
            <Field label="Grant id" errors={errors('grantId', 'grantId')} hint="Optional: any active delegation to the actor counts">
              {(id, describedBy) => (
                <input id={id} aria-describedby={describedBy} value={draft.grantId} onChange={(e) => set('grantId')(e.target.value)} autoComplete="off" />
              )}
            </Field>
          </>
        ) : null}
        {draft.callerKind === 'application' ? (
          <>
            <Field label="Scopes" errors={errors('scopes', 'scopes')} hint="The application's token scopes, space-separated">
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  value={draft.scopes}
                  onChange={(e) => set('scopes')(e.target.value)}
                  placeholder="cases.case.view"
                  spellCheck={false}
                  autoComplete="off"
                />
              )}
            </Field>
            <Field label="Client id" errors={errors('clientId', 'clientId')} hint="Optional: the subject by default">
              {(id, describedBy) => (
                <input id={id} aria-describedby={describedBy} value={draft.clientId} onChange={(e) => set('clientId')(e.target.value)} autoComplete="off" />
              )}
            </Field>
          </>
        ) : null}
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

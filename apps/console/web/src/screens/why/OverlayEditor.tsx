import { FormEvent, useId, useState } from 'react';
import type { ApiProblem } from '../../api/problem';
import { Field } from '../../ui/kit';
import { CatalogHints, Suggestions } from './catalog-hints';
import { addChange, CHANGE_KINDS, ChangeDraft, ChangeKind, draftErrors, listChanges } from './overlay-changes';
import { compactOverlay, PolicyOverlay } from './question';
import { useSyncedDraft } from '../../ui/use-synced-draft';

type DraftField = keyof ReturnType<typeof draftErrors>;

/**
 * The API's messages about the overlay for one field of the form: `overlay.roleName` (an unknown
 * role), `overlay.addRoleBindings.0.roleName` (a malformed one), and so on.
 */
function overlayErrors(problem: ApiProblem | undefined, field: DraftField): string[] {
  if (!problem) return [];
  const suffix = { subject: '.subject', roleName: '.roleName', permissionCode: '.permissionCode', featureCode: 'features', ruleId: 'abacRules.remove' }[field];
  return Object.entries(problem.fieldErrors)
    .filter(([path]) => path.startsWith('overlay') && (path.endsWith(suffix) || (field === 'featureCode' && path.includes('features.'))))
    .flatMap(([, messages]) => messages);
}

/**
 * The what-if editor: proposed changes to the policy, kept in the URL and sent as the simulation's
 * overlay, so their effect shows before anything is saved. Nothing here writes policy.
 */
export function OverlayEditor({
  overlay,
  onChange,
  defaultSubject,
  hints,
  problem,
}: {
  overlay: PolicyOverlay;
  onChange: (overlay: PolicyOverlay) => void;
  defaultSubject: string;
  hints: CatalogHints;
  problem: ApiProblem | undefined;
}) {
  const [draft, setDraft] = useState<ChangeDraft>({
    kind: 'addRoleBindings',
    subject: defaultSubject,
    roleName: '',
    permissionCode: '',
    featureCode: '',
    featureEnabled: true,
    ruleId: '',
  });
  const [missing, setMissing] = useState<ReturnType<typeof draftErrors>>({});
  const listId = useId();
  const changes = listChanges(overlay);
  const update = (patch: Partial<ChangeDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const errors = (field: DraftField) => [...(missing[field] ? [missing[field]] : []), ...overlayErrors(problem, field)];
  const needs = (field: DraftField): boolean => {
    switch (draft.kind) {
      case 'addRoleBindings':
      case 'removeRoleBindings':
        return field === 'subject' || field === 'roleName';
      case 'addRolePermissions':
      case 'removeRolePermissions':
        return field === 'roleName' || field === 'permissionCode';
      case 'features':
        return field === 'featureCode';
      case 'removeAbacRule':
        return field === 'ruleId';
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    const found = draftErrors(draft);
    setMissing(found);
    if (Object.keys(found).length === 0) onChange(addChange(overlay, draft));
  };

  return (
    <section className="why-overlay" aria-labelledby={`${listId}-title`}>
      <h2 id={`${listId}-title`}>What if…</h2>
      <p className="why-meaning">Propose changes: the question is answered again on the saved policy with them applied. Nothing is saved.</p>
      <form onSubmit={add} noValidate aria-label="Propose a change">
        <div className="form-row">
          <Field label="Change">
            {(id) => (
              <select id={id} value={draft.kind} onChange={(e) => update({ kind: e.target.value as ChangeKind })}>
                {CHANGE_KINDS.map((kind) => (
                  <option key={kind.kind} value={kind.kind}>
                    {kind.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {needs('subject') ? (
            <Field label="Subject of the change" errors={errors('subject')}>
              {(id, describedBy) => (
                <input id={id} aria-describedby={describedBy} value={draft.subject} onChange={(e) => update({ subject: e.target.value })} autoComplete="off" />
              )}
            </Field>
          ) : null}
          {needs('roleName') ? (
            <Field label="Role name" errors={errors('roleName')}>
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  list={`${listId}-roles`}
                  value={draft.roleName}
                  onChange={(e) => update({ roleName: e.target.value })}
                  autoComplete="off"
                />
              )}
            </Field>
          ) : null}
          {needs('permissionCode') ? (
            <Field label="Permission code" errors={errors('permissionCode')}>
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  list={`${listId}-codes`}
                  value={draft.permissionCode}
                  onChange={(e) => update({ permissionCode: e.target.value })}
                  placeholder="cases.case.view"
                  autoComplete="off"
                />
              )}
            </Field>
          ) : null}
          {needs('featureCode') ? (
            <>
              <Field label="Feature code" errors={errors('featureCode')}>
                {(id, describedBy) => (
                  <input
                    id={id}
                    aria-describedby={describedBy}
                    list={`${listId}-features`}
                    value={draft.featureCode}
                    onChange={(e) => update({ featureCode: e.target.value })}
                    autoComplete="off"
                  />
                )}
              </Field>
              <Field label="Feature state">
                {(id) => (
                  <select id={id} value={draft.featureEnabled ? 'on' : 'off'} onChange={(e) => update({ featureEnabled: e.target.value === 'on' })}>
                    <option value="on">On</option>
                    <option value="off">Off</option>
                  </select>
                )}
              </Field>
            </>
          ) : null}
          {needs('ruleId') ? (
            <Field label="Rule id" errors={errors('ruleId')}>
              {(id, describedBy) => (
                <input id={id} aria-describedby={describedBy} value={draft.ruleId} onChange={(e) => update({ ruleId: e.target.value })} autoComplete="off" />
              )}
            </Field>
          ) : null}
          <div className="field">
            <button type="submit" className="secondary">
              Add change
            </button>
          </div>
        </div>
      </form>
      <Suggestions id={`${listId}-roles`} values={hints.roleNames} />
      <Suggestions id={`${listId}-codes`} values={hints.permissionCodes} />
      <Suggestions id={`${listId}-features`} values={hints.featureCodes} />

      <h3>Proposed changes</h3>
      {changes.length === 0 ? (
        <p className="why-meaning">None yet: the answer is the saved policy's.</p>
      ) : (
        <>
          <ul className="why-changes" aria-label="Proposed changes">
            {changes.map((change) => (
              <li key={change.key}>
                <span>{change.text}</span>{' '}
                <button type="button" className="secondary" aria-label={`Remove: ${change.text}`} onClick={() => onChange(change.without)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={() => onChange({})}>
            Clear all changes
          </button>
        </>
      )}
      <OverlayJson overlay={overlay} onChange={onChange} />
    </section>
  );
}

/** Any overlay the API accepts (ABAC rules to add included), as JSON. */
function OverlayJson({ overlay, onChange }: { overlay: PolicyOverlay; onChange: (overlay: PolicyOverlay) => void }) {
  const json = JSON.stringify(compactOverlay(overlay), null, 2);
  const [text, setText] = useSyncedDraft(json, json);
  const [error, setError] = useState<string | undefined>();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    try {
      const value = JSON.parse(text || '{}') as unknown;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('The overlay must be a JSON object.');
      setError(undefined);
      onChange(compactOverlay(value as PolicyOverlay));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };
  return (
    <details className="why-json">
      <summary>Edit the proposed changes as JSON (any overlay the API takes, ABAC rules to add included)</summary>
      <form onSubmit={apply} noValidate aria-label="Proposed changes as JSON">
        <Field
          label="Overlay JSON"
          errors={error ? [error] : []}
          hint="addRoleBindings, removeRoleBindings, addRolePermissions, removeRolePermissions, abacRules { add, remove }, features"
        >
          {(id, describedBy) => (
            <textarea id={id} aria-describedby={describedBy} rows={8} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
          )}
        </Field>
        <button type="submit" className="secondary">
          Apply JSON
        </button>
      </form>
    </details>
  );
}

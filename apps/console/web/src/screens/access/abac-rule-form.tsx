import { FormEvent, useEffect, useRef, useState } from 'react';
import { Field, ProblemMessage } from '../../ui/kit';
import type { SaveAbacRule } from './access-api';
import {
  ABAC_FIELDS,
  ABAC_LIMITS,
  ABAC_OPERATORS,
  ABAC_VERDICTS,
  AbacRuleDraft,
  abacRuleBody,
  AUTHORIZATION_ACTIONS,
  CONDITIONS_EXAMPLE,
  EMPTY_ABAC_DRAFT,
  validateAbacRule,
} from './abac-rule-validation';
import { hasErrors, mergeErrors, useApiFieldErrors } from './form-errors';
import { focusFirstInvalid } from './role-form';

const FIELDS = ['name', 'description', 'priority', 'verdict', 'enabled', 'actions', 'modules', 'resourceTypes', 'obligations', 'conditions'] as const;

/**
 * Create or replace an ABAC rule. The form's own checks run on submit (and again on every change
 * after a first submit); the API's field errors (`conditions.0.value`, ...) are shown beside the
 * field they name, and its problem above the form.
 */
export function AbacRuleForm({
  mode,
  initial,
  saving,
  error,
  onSave,
  onCancel,
}: {
  mode: 'create' | 'update';
  initial?: AbacRuleDraft;
  saving: boolean;
  error: unknown;
  onSave: (body: SaveAbacRule) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<AbacRuleDraft>(initial ?? EMPTY_ABAC_DRAFT);
  const [checked, setChecked] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const own = checked ? validateAbacRule(draft) : {};
  const api = useApiFieldErrors(error, FIELDS, {
    itemNouns: { conditions: 'condition', actions: 'action', modules: 'module', resourceTypes: 'resource type', obligations: 'obligation' },
  });
  const errors = mergeErrors(own, api.byField);
  const apiFields = api.answered;

  useEffect(() => {
    if (hasErrors(apiFields)) focusFirstInvalid(form.current, apiFields);
  }, [error]);

  const set = (patch: Partial<AbacRuleDraft>) => {
    for (const field of Object.keys(patch)) api.edited(field);
    setDraft((current) => ({ ...current, ...patch }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const found = validateAbacRule(draft);
    if (hasErrors(found)) {
      focusFirstInvalid(form.current, found);
      return;
    }
    onSave(abacRuleBody(draft));
  };
  const invalid = (field: string) => ((errors[field]?.length ?? 0) > 0 ? true : undefined);
  const actionsHelp = 'abac-actions-help';

  return (
    <form ref={form} onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New ABAC rule' : 'Edit ABAC rule'} className="access-form">
      <ProblemMessage error={api.problem} title={mode === 'create' ? 'The rule was not created' : 'The rule was not saved'} />
      <div className="access-grid">
        <Field label="Name" errors={errors.name} hint={`Required, at most ${ABAC_LIMITS.name} characters.`}>
          {(id, describedBy) => (
            <input
              id={id}
              name="name"
              autoFocus
              autoComplete="off"
              aria-required="true"
              aria-describedby={describedBy}
              aria-invalid={invalid('name')}
              value={draft.name}
              onChange={(event) => set({ name: event.target.value })}
            />
          )}
        </Field>
        <Field label="Priority" errors={errors.priority} hint="0 is tried first; the first rule that applies and matches decides.">
          {(id, describedBy) => (
            <input
              id={id}
              name="priority"
              inputMode="numeric"
              aria-required="true"
              aria-describedby={describedBy}
              aria-invalid={invalid('priority')}
              value={draft.priority}
              onChange={(event) => set({ priority: event.target.value })}
            />
          )}
        </Field>
        <Field label="Verdict" errors={errors.verdict}>
          {(id, describedBy) => (
            <select
              id={id}
              name="verdict"
              aria-describedby={describedBy}
              aria-invalid={invalid('verdict')}
              value={draft.verdict}
              onChange={(event) => set({ verdict: event.target.value })}
            >
              {ABAC_VERDICTS.map((verdict) => (
                <option key={verdict} value={verdict}>
                  {verdict}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field label="Description" errors={errors.description} hint={`Optional, at most ${ABAC_LIMITS.description} characters.`}>
        {(id, describedBy) => (
          <textarea
            id={id}
            name="description"
            rows={2}
            aria-describedby={describedBy}
            aria-invalid={invalid('description')}
            value={draft.description}
            onChange={(event) => set({ description: event.target.value })}
          />
        )}
      </Field>
      <fieldset className="access-fieldset" aria-describedby={actionsHelp}>
        <legend>Actions</legend>
        <div className="access-checks">
          {AUTHORIZATION_ACTIONS.map((action) => (
            <label key={action} className="access-check">
              <input
                type="checkbox"
                name="actions"
                value={action}
                checked={draft.actions.includes(action)}
                onChange={(event) => set({ actions: event.target.checked ? [...draft.actions, action] : draft.actions.filter((other) => other !== action) })}
              />{' '}
              {action}
            </label>
          ))}
        </div>
        <div id={actionsHelp} className="field-help">
          <div>None ticked: the rule applies to every action.</div>
          {(errors.actions ?? []).map((message) => (
            <div key={message} className="field-error">
              {message}
            </div>
          ))}
        </div>
      </fieldset>
      <div className="access-grid">
        <Field label="Modules" errors={errors.modules} hint="Comma-separated module codes (e.g. billing); empty: every module.">
          {(id, describedBy) => (
            <input
              id={id}
              name="modules"
              autoComplete="off"
              aria-describedby={describedBy}
              aria-invalid={invalid('modules')}
              value={draft.modules}
              onChange={(event) => set({ modules: event.target.value })}
            />
          )}
        </Field>
        <Field label="Resource types" errors={errors.resourceTypes} hint="Comma-separated resource codes (e.g. refund); empty: every type.">
          {(id, describedBy) => (
            <input
              id={id}
              name="resourceTypes"
              autoComplete="off"
              aria-describedby={describedBy}
              aria-invalid={invalid('resourceTypes')}
              value={draft.resourceTypes}
              onChange={(event) => set({ resourceTypes: event.target.value })}
            />
          )}
        </Field>
      </div>
      <Field
        label="Conditions (JSON)"
        errors={errors.conditions}
        hint={
          <>
            A JSON array; all must hold (none: the rule matches every request it applies to). Example: <code>{CONDITIONS_EXAMPLE}</code>. Fields:{' '}
            {ABAC_FIELDS.join(', ')}. Operators: {ABAC_OPERATORS.join(', ')}.
          </>
        }
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            name="conditions"
            rows={5}
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid('conditions')}
            value={draft.conditions}
            onChange={(event) => set({ conditions: event.target.value })}
          />
        )}
      </Field>
      <Field label="Obligations" errors={errors.obligations} hint="One a line; collected when the rule allows. Optional.">
        {(id, describedBy) => (
          <textarea
            id={id}
            name="obligations"
            rows={2}
            aria-describedby={describedBy}
            aria-invalid={invalid('obligations')}
            value={draft.obligations}
            onChange={(event) => set({ obligations: event.target.value })}
          />
        )}
      </Field>
      <label className="access-check">
        <input type="checkbox" name="enabled" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} /> Enabled (a disabled rule
        is kept but not evaluated)
      </label>
      {errors.enabled && <div className="field-error">{errors.enabled.join(' ')}</div>}
      <div className="form-row">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : mode === 'create' ? 'Create rule' : 'Save rule'}
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        {saving && (
          <span role="status" className="busy">
            Saving the rule…
          </span>
        )}
      </div>
    </form>
  );
}

import { FormEvent, useEffect, useRef, useState } from 'react';
import { Field, ProblemMessage } from '../../ui/kit';
import { ROLE_DATA_SCOPES, SaveRole } from './access-api';
import { FieldErrors, hasErrors, mergeErrors, useApiFieldErrors } from './form-errors';
import { RoleDraft, roleBody, validateRole } from './role-validation';

const FIELDS = ['name', 'description', 'dataScope'] as const;

const SCOPE_LABELS: Record<string, string> = {
  tenant: 'tenant: every record of the tenant',
  office: "office: records of the holder's office",
  own: 'own: records the holder owns',
  none: 'none: no records',
};

/**
 * Create or edit a role. The form checks what the API's DTO checks before sending; what the API
 * answers (a taken name, a field error) is shown beside its field as well as above the form.
 */
export function RoleForm({
  mode,
  initial,
  saving,
  error,
  onSave,
  onCancel,
  nameLocked = false,
}: {
  mode: 'create' | 'update';
  /** A protected role keeps its name (the API refuses a rename): shown, not editable. */
  nameLocked?: boolean;
  initial?: RoleDraft;
  saving: boolean;
  error: unknown;
  onSave: (body: SaveRole) => void;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<RoleDraft>(initial ?? { name: '', description: '', dataScope: 'tenant' });
  const [checked, setChecked] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const own: FieldErrors = checked ? validateRole(draft) : {};
  const api = useApiFieldErrors(error, FIELDS, { codeFields: { 'Authorization.RoleNameTaken': 'name', 'Authorization.RoleProtected': 'name' } });
  const errors = mergeErrors(own, api.byField);
  const apiFields = api.answered;

  // The API refused: take the user to the first field it named.
  useEffect(() => {
    if (hasErrors(apiFields)) focusFirstInvalid(form.current, apiFields);
    // Only a new answer moves focus, not each keystroke: the effect depends on the answer alone.
  }, [error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const found = validateRole(draft);
    if (hasErrors(found)) {
      focusFirstInvalid(form.current, found);
      return;
    }
    onSave(roleBody(draft, mode));
  };

  const set = (patch: Partial<RoleDraft>) => {
    for (const field of Object.keys(patch)) api.edited(field);
    setDraft((current) => ({ ...current, ...patch }));
  };
  const title = mode === 'create' ? 'New role' : 'Edit role';
  return (
    <form ref={form} onSubmit={submit} noValidate aria-label={title} className="access-form">
      <ProblemMessage error={api.problem} title={mode === 'create' ? 'The role was not created' : 'The role was not saved'} />
      <Field
        label="Name"
        errors={errors.name}
        hint={
          nameLocked
            ? 'A seeded role keeps its name: the tenant is administered through it.'
            : '1–100 characters: a letter or digit first, then letters, digits, spaces, “.”, “_”, “-”.'
        }
      >
        {(id, describedBy) => (
          <input
            id={id}
            name="name"
            aria-describedby={describedBy}
            aria-invalid={errors.name ? true : undefined}
            aria-required="true"
            autoComplete="off"
            autoFocus={!nameLocked}
            readOnly={nameLocked}
            value={draft.name}
            onChange={(event) => set({ name: event.target.value })}
          />
        )}
      </Field>
      <Field label="Description" errors={errors.description} hint="Optional, up to 500 characters.">
        {(id, describedBy) => (
          <textarea
            id={id}
            name="description"
            rows={2}
            aria-describedby={describedBy}
            aria-invalid={errors.description ? true : undefined}
            value={draft.description}
            onChange={(event) => set({ description: event.target.value })}
          />
        )}
      </Field>
      <Field label="Data scope" errors={errors.dataScope} hint="Which records the role's permissions reach.">
        {(id, describedBy) => (
          <select
            id={id}
            name="dataScope"
            aria-describedby={describedBy}
            aria-invalid={errors.dataScope ? true : undefined}
            value={draft.dataScope}
            onChange={(event) => set({ dataScope: event.target.value })}
          >
            {ROLE_DATA_SCOPES.map((scope) => (
              <option key={scope} value={scope}>
                {SCOPE_LABELS[scope] ?? scope}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="form-row">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : mode === 'create' ? 'Create role' : 'Save role'}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel} disabled={saving}>
            Cancel
          </button>
        )}
        {saving && (
          <span role="status" className="busy">
            Saving the role…
          </span>
        )}
      </div>
    </form>
  );
}

/** Moves focus to the first field (in the form's order) that has a message. */
export function focusFirstInvalid(form: HTMLFormElement | null, errors: FieldErrors): void {
  if (!form) return;
  const invalid = Array.from(form.elements).find(
    (element): element is HTMLElement => element instanceof HTMLElement && 'name' in element && (errors[(element as HTMLInputElement).name]?.length ?? 0) > 0,
  );
  invalid?.focus();
}

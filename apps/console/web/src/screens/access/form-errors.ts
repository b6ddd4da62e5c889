import { useState } from 'react';
import { ApiProblem, asProblem } from '../../api/problem';

/** Messages per form field (the form's own checks, or the API's answer). */
export type FieldErrors = Record<string, string[]>;

/**
 * The API's answer to a form's submit, split for display: the field errors each form field shows
 * beside itself, and the problem left for the message above the form (its `detail`, and any field
 * error the form has no field for).
 *
 * A field error's path is matched on its first segment (`conditions.0.value` belongs to the field
 * `conditions`; a deeper path keeps its tail in the message, `condition 1, value: …`, so the user
 * knows which item is meant; `itemNouns` names a field's items). `codeFields` maps problem codes that
 * are about one field (`Authorization.RoleNameTaken`) to it.
 */
export function splitProblem(
  error: unknown,
  fields: readonly string[],
  { codeFields = {}, itemNouns = {} }: SplitOptions = {},
): { byField: FieldErrors; problem: ApiProblem | undefined } {
  if (!error) return { byField: {}, problem: undefined };
  const problem = asProblem(error);
  const byField: FieldErrors = {};
  const unmatched: FieldErrors = {};
  for (const [path, messages] of Object.entries(problem.fieldErrors)) {
    const [head = path, ...tail] = path.split('.');
    if (fields.includes(head)) {
      const where = tail.length > 0 ? `${describePath(tail, itemNouns[head] ?? 'item')}: ` : '';
      byField[head] = [...(byField[head] ?? []), ...messages.map((message) => `${where}${message}`)];
    } else {
      unmatched[path] = messages;
    }
  }
  const codeField = codeFields[problem.code];
  if (codeField && fields.includes(codeField)) byField[codeField] = [...(byField[codeField] ?? []), problem.detail];
  const rest = new ApiProblem(problem.status, { code: problem.code, detail: problem.detail, correlationId: problem.correlationId, errors: unmatched });
  return { byField, problem: rest };
}

export interface SplitOptions {
  codeFields?: Record<string, string>;
  itemNouns?: Record<string, string>;
}

/** `['0', 'value']` → `condition 1, value` (users count from one). */
function describePath(tail: string[], noun: string): string {
  return tail.map((part) => (/^\d+$/.test(part) ? `${noun} ${Number(part) + 1}` : part)).join(', ');
}

/**
 * The API's answer to a form, as `splitProblem` splits it, where a field the user has edited since
 * the answer stops showing the API's message about it (it was about the old value). `edited(field)`
 * is called from the field's change handler; `answered` holds every field error of the answer, for
 * moving focus to the first.
 */
export function useApiFieldErrors(error: unknown, fields: readonly string[], options: SplitOptions = {}) {
  const [edited, setEdited] = useState<{ error: unknown; fields: ReadonlySet<string> }>({ error: undefined, fields: new Set() });
  const split = splitProblem(error, fields, options);
  const stale = edited.error === error ? edited.fields : new Set<string>();
  const byField = Object.fromEntries(Object.entries(split.byField).filter(([field]) => !stale.has(field)));
  return {
    byField,
    answered: split.byField,
    problem: split.problem,
    edited: (field: string) => {
      if (error && !stale.has(field)) setEdited({ error, fields: new Set(stale).add(field) });
    },
  };
}

/** The form's own messages first, then the API's, without repeats. */
export function mergeErrors(...sources: FieldErrors[]): FieldErrors {
  const merged: FieldErrors = {};
  for (const source of sources) {
    for (const [field, messages] of Object.entries(source)) {
      merged[field] = [...new Set([...(merged[field] ?? []), ...messages])];
    }
  }
  return merged;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some((messages) => messages.length > 0);
}

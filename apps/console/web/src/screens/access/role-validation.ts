import { ROLE_DATA_SCOPES, SaveRole } from './access-api';
import type { FieldErrors } from './form-errors';

/**
 * The checks of the API's `SaveRoleDto` (libs/services/policy-management/src/roles/dto/save-role.dto.ts),
 * run before a submit so the user hears at once what the API would refuse. The API still checks (and
 * alone knows whether a name is taken).
 */
export const ROLE_NAME_MAX = 100;
export const ROLE_DESCRIPTION_MAX = 500;
export const ROLE_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u;

export interface RoleDraft {
  name: string;
  description: string;
  dataScope: string;
}

export function validateRole(draft: RoleDraft): FieldErrors {
  const errors: FieldErrors = {};
  const name = draft.name.trim();
  if (name.length === 0) errors.name = ['Enter a name.'];
  else if (name.length > ROLE_NAME_MAX) errors.name = [`The name is ${name.length} characters long; at most ${ROLE_NAME_MAX} are allowed.`];
  else if (!ROLE_NAME_PATTERN.test(name))
    errors.name = ['The name must start with a letter or digit and contain only letters, digits, spaces, ".", "_" and "-".'];
  if (draft.description.length > ROLE_DESCRIPTION_MAX) {
    errors.description = [`The description is ${draft.description.length} characters long; at most ${ROLE_DESCRIPTION_MAX} are allowed.`];
  }
  if (!(ROLE_DATA_SCOPES as readonly string[]).includes(draft.dataScope)) errors.dataScope = [`Choose one of: ${ROLE_DATA_SCOPES.join(', ')}.`];
  return errors;
}

/**
 * The body the form sends. An empty description is left out on create and cleared (`null`) on an
 * update, where an omitted field would keep its old value.
 */
export function roleBody(draft: RoleDraft, mode: 'create' | 'update'): SaveRole {
  const description = draft.description.trim() === '' ? (mode === 'create' ? undefined : null) : draft.description;
  return { name: draft.name.trim(), description, dataScope: draft.dataScope as SaveRole['dataScope'] };
}

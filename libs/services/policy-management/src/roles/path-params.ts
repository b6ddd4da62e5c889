import { NotFoundError, ValidationError } from '@lp/contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// C0, DEL and C1 control characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A path id that is not a UUID names no record: 404 `NotFound`, exactly like an unknown id or
 * another tenant's id, so a malformed id tells a caller nothing more than a missing one.
 */
export function requireUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new NotFoundError(what);
  return value.toLowerCase();
}

/** The identity subject key of a user: 1–255 characters, no control characters (400 otherwise). */
export function requireUserId(value: string): string {
  if (value.length < 1 || value.length > 255 || CONTROL.test(value)) {
    throw new ValidationError({ userId: ['userId must be 1 to 255 characters without control characters'] });
  }
  return value;
}

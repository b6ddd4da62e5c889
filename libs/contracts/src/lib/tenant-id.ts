import { z } from 'zod';

/**
 * The tenant id rule, one definition for the fleet: what operations' tenant store accepts
 * (`platform.tenant.id`, varchar(64) with the same CHECK) and so what every `tenant_id` column
 * holds. A token's `tenant_id` claim, a trusted caller arriving over RPC, a tenant to bootstrap and
 * a tenant to create are checked against it, so `Default`, `default `, `../default`, `default\0`
 * or 300 characters never reach a decision, a cache key or a statement.
 */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
export const TENANT_ID_MAX_LENGTH = 64;
const RULE = 'must be lower-case letters, digits, "_" and "-", starting with a letter or digit';

export function isTenantId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= TENANT_ID_MAX_LENGTH && TENANT_ID_PATTERN.test(value);
}

/** The rule as a message schema, its messages naming the field (`tenantId must be ...`). */
export function tenantIdSchema(field = 'tenantId') {
  return z.string().min(1).max(TENANT_ID_MAX_LENGTH).regex(TENANT_ID_PATTERN, `${field} ${RULE}`);
}

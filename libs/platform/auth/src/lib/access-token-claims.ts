/**
 * The claims of a verified access token this library reads. Names follow RFC 9068 (JWT access
 * tokens: `sub`, `client_id`, `scope`), RFC 8693 (`act`), and ours (`tenant_id`, `grant_id`).
 */
export interface AccessTokenClaims {
  iss?: string;
  aud?: string | string[];
  sub?: string;
  exp?: number;
  iat?: number;
  jti?: string;
  tenant_id?: unknown;
  client_id?: unknown;
  scope?: unknown;
  act?: unknown;
  grant_id?: unknown;
  roles?: unknown;
  [claim: string]: unknown;
}

/** RFC 8693 §4.1: `act` names the current actor; a nested `act` names the one before it. */
export interface ActorClaim {
  sub: string;
  act?: ActorClaim;
}

/** `scope` is a space-separated string (RFC 9068 §2.2.3); some issuers send an array instead. */
export function scopesOf(claims: AccessTokenClaims): string[] {
  return uniqueSorted(wordsOf(claims.scope));
}

export function rolesOf(claims: AccessTokenClaims): string[] {
  return uniqueSorted(wordsOf(claims.roles));
}

/**
 * The acting subjects, current actor first. `undefined` when there is no `act` claim; `null` when
 * it is present but unusable, which callers must treat as a rejection, never as "no delegation".
 */
export function actorChainOf(claims: AccessTokenClaims): string[] | undefined | null {
  if (claims.act === undefined) return undefined;
  const chain: string[] = [];
  let act: unknown = claims.act;
  while (act !== undefined) {
    if (!isRecord(act) || !isNonEmptyString(act['sub'])) return null;
    chain.push(act['sub']);
    act = act['act'];
  }
  return chain;
}

export function stringClaim(value: unknown): string | undefined {
  return isNonEmptyString(value) ? value : undefined;
}

function wordsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(' ').filter((word) => word.length > 0);
  if (Array.isArray(value)) return value.filter(isNonEmptyString);
  return [];
}

function uniqueSorted(values: string[]): string[] {
  return [...new Set(values)].sort();
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

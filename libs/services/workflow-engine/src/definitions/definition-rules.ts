import { createHash } from 'node:crypto';
import { DEFINITION_KEY_PATTERN } from '@lp/contracts';

export { DEFINITION_KEY_PATTERN };

/**
 * Definition keys: lower-case kebab slugs, 1–64 characters, letters and digits at both ends
 * (`contract-approval`, `nda-v2`). They appear in URLs and event payloads as they are, so they need
 * no escaping. The words below are path segments of sibling routes (`/definitions/versions/{id}`,
 * `/definitions/schema`, …): a key spelled like one would make two routes ambiguous.
 */
export const RESERVED_DEFINITION_KEYS: ReadonlySet<string> = new Set(['versions', 'schema', 'designer-schema', 'validate', 'simulate']);

/** Why `key` is not a definition key, or undefined when it is one. */
export function definitionKeyProblem(key: string): string | undefined {
  if (!DEFINITION_KEY_PATTERN.test(key)) return 'must be 1-64 lower-case letters, digits and "-", starting and ending with a letter or digit';
  if (RESERVED_DEFINITION_KEYS.has(key)) return `"${key}" is reserved (a route segment)`;
  return undefined;
}

export interface DefinitionLimits {
  maxBytes: number;
  maxNodes: number;
}

/**
 * Every node of the definition, nested ones included: the format is block-structured, so a
 * gateway's branches hold their own `nodes` sequences. Counts the elements of every `nodes` array
 * at any depth (walking iteratively: depth is bounded at the edge, but a walk should not rely on it).
 */
export function nodeCountOf(definition: Record<string, unknown>): number {
  let count = 0;
  const stack: unknown[] = [definition];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (Array.isArray(next)) {
      stack.push(...next);
      continue;
    }
    if (next === null || typeof next !== 'object') continue;
    for (const [field, value] of Object.entries(next as Record<string, unknown>)) {
      if (field === 'nodes' && Array.isArray(value)) count += value.length;
      if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return count;
}

/**
 * Why `definition` exceeds the limits, or undefined. Size is the UTF-8 length of its compact JSON,
 * what the database stores (give or take jsonb's own layout), independent of the client's spacing.
 */
export function definitionLimitProblem(definition: Record<string, unknown>, limits: DefinitionLimits): string | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(definition), 'utf8');
  if (bytes > limits.maxBytes) return `The definition is ${bytes} bytes of JSON; at most ${limits.maxBytes} are accepted.`;
  const nodes = nodeCountOf(definition);
  if (nodes > limits.maxNodes) return `The definition has ${nodes} nodes; at most ${limits.maxNodes} are accepted.`;
  return undefined;
}

/** JSON with object keys sorted at every level, so the same definition always reads the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON: jsonb reorders keys, so a checksum of the raw text would not survive a round trip. */
export function definitionChecksum(definition: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

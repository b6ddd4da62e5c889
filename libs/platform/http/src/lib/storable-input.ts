/**
 * Input every service can store and walk: PostgreSQL text cannot hold NUL (`invalid byte sequence
 * for encoding "UTF8": 0x00`), a lone UTF-16 surrogate has no UTF-8 form, and nesting deep enough
 * overflows the stack of class-transformer (and of anything else that recurses over it). Checked
 * once at the edge, for bodies, path parameters and query strings over HTTP and for RPC payloads,
 * before any DTO transformation, so such input is a 400 naming the field instead of a 500.
 */
export const MAX_INPUT_DEPTH = 32;

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | undefined {
  if (text.includes(NUL)) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (no unpaired surrogates)';
  return undefined;
}

/**
 * The problems of `value` by field path (`""` for the root), at most one per field, walking
 * iteratively so a hostile depth cannot overflow the walk itself.
 */
export function unstorableInput(value: unknown, root = ''): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: root, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) errors[path || 'body'] = [problem];
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      errors[path || 'body'] = [`must not nest deeper than ${MAX_INPUT_DEPTH} levels`];
      continue;
    }
    if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, path: join(path, i), depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(current as Record<string, unknown>)) {
      const keyProblem = problemOf(key);
      if (keyProblem) {
        errors[path || 'body'] = [`field names ${keyProblem}`];
        continue;
      }
      stack.push({ value: item, path: join(path, key), depth: depth + 1 });
    }
  }
  return errors;
}

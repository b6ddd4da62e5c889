import { FieldProblems } from '@lp/contracts';

/**
 * Input every service can store and walk: PostgreSQL text cannot hold NUL (`invalid byte sequence
 * for encoding "UTF8": 0x00`), a lone UTF-16 surrogate has no UTF-8 form, and nesting deep enough
 * overflows the stack of class-transformer (and of anything else that recurses over it). Checked
 * once at the edge, for bodies, path parameters and query strings over HTTP and for RPC payloads,
 * before any DTO transformation, so such input is a 400 naming the field instead of a 500.
 *
 * The same walk refuses, at any depth and as an unknown field is refused, field names that are
 * members of `Object.prototype` (`__proto__`, `constructor`, `toString`, `hasOwnProperty`, ...):
 * class-transformer drops them silently (so a DTO accepted them where any other unknown field is a
 * 400), and on a plain object a lookup or an assignment by such a name reaches the prototype (a
 * problem collector answered 500 for `{"constructor":1}`).
 */
export const MAX_INPUT_DEPTH = 32;

const NUL = '\u0000';
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
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
  const errors = new FieldProblems();
  const report = (path: string, problem: string) => {
    if (!errors.has(path)) errors.add(path, problem);
  };
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: root, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) report(path || 'body', problem);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      report(path || 'body', `must not nest deeper than ${MAX_INPUT_DEPTH} levels`);
      continue;
    }
    if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, path: join(path, i), depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(current as Record<string, unknown>)) {
      const keyProblem = problemOf(key);
      if (keyProblem) {
        report(path || 'body', `field names ${keyProblem}`);
        continue;
      }
      if (PROTOTYPE_NAMES.has(key)) {
        report(join(path, key), `property ${key} should not exist`);
        continue;
      }
      stack.push({ value: item, path: join(path, key), depth: depth + 1 });
    }
  }
  return errors.toRecord();
}

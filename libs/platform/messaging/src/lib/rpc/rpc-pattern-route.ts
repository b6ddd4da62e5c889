/** A pattern name of the fleet's form (`authz.decide`, `bench.echo`): letters, digits, `_ . : -`. */
const PLAIN_NAME = /^[A-Za-z_][\w.:-]*$/;

/**
 * Whether an incoming pattern is a plain name, the route Nest would end up with anyway. Nest's
 * `getRouteFromPattern` first tries `JSON.parse` on every pattern (to find object patterns), which
 * for a plain name throws: an exception with a stack trace for every message, about a tenth of
 * what an echo round trip costs the server. Both RPC servers route plain names directly and leave
 * anything else (`{...}`, `[...]`, numbers, `true`/`false`/`null`) to Nest.
 */
export function isPlainPatternName(pattern: unknown): pattern is string {
  return typeof pattern === 'string' && PLAIN_NAME.test(pattern) && pattern !== 'true' && pattern !== 'false' && pattern !== 'null';
}

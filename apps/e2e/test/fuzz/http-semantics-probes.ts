/**
 * What the HTTP-semantics sweep of the fuzz spec sends, from the served OpenAPI documents (RFC 9110):
 * HEAD wherever GET is, a method a path lacks (405 with `Allow`), content that is not JSON on every
 * operation that takes a body (415).
 */

interface OpenApiPaths {
  paths: Record<string, Record<string, { requestBody?: unknown }>>;
}

export interface DocumentedPath {
  service: string;
  /** The template, e.g. `/api/cases/{id}`. */
  path: string;
  /** The template with a well-formed value in every parameter. */
  url: string;
  /** The documented methods, upper case, HEAD added where GET is. */
  methods: string[];
  /** The documented methods whose operation takes a request body. */
  bodyMethods: string[];
}

const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'query', 'options'];
const WELL_FORMED_PATH_VALUE = '00000000-0000-0000-0000-000000000000';

export function documentedPaths(service: string, doc: OpenApiPaths): DocumentedPath[] {
  return Object.entries(doc.paths).map(([path, item]) => {
    const methods = HTTP_METHODS.filter((method) => item[method]).map((method) => method.toUpperCase());
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    return {
      service,
      path,
      url: path.replace(/\{[^}]+\}/g, WELL_FORMED_PATH_VALUE),
      methods,
      bodyMethods: HTTP_METHODS.filter((method) => item[method]?.requestBody !== undefined).map((method) => method.toUpperCase()),
    };
  });
}

function templateMatches(template: string, url: string): boolean {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`).test(url);
}

/**
 * A method no documented path of the service answers at `documented.url`, or undefined. The URL's
 * value may fill another template too (`/field-security/effective` is also `/field-security/{id}`,
 * which has DELETE): those methods are the resource's as well.
 */
export function undocumentedMethod(documented: DocumentedPath, servicePaths: DocumentedPath[]): string | undefined {
  const answered = servicePaths.filter((other) => templateMatches(other.path, documented.url)).flatMap((other) => other.methods);
  return ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((method) => !answered.includes(method));
}

/**
 * A GET's and a HEAD's headers, for comparison: every header by name, and by value but for those
 * that differ from one answer to the next (date, correlation id, remaining rate limit) or describe
 * the body as sent (its length, its encoding, its tag: a body read twice, the metrics, may differ).
 */
export function comparableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const varying = new Set(['date', 'x-correlation-id', 'ratelimit']);
  const ofTheBody = new Set(['content-length', 'transfer-encoding', 'etag']);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !ofTheBody.has(name))
      .map(([name, value]) => [name, varying.has(name) ? 'present' : value]),
  );
}

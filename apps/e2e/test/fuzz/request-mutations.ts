import fc from 'fast-check';

/** One HTTP operation of an OpenAPI document, as the fuzzer drives it. */
export interface FuzzOperation {
  service: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'query';
  /** The path template, e.g. `/api/authorization/roles/{roleId}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The request body's JSON schema (resolved one level), when the operation takes one. */
  bodySchema?: JsonSchema;
}

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  $ref?: string;
  enum?: unknown[];
  [key: string]: unknown;
}

export interface FuzzRequest {
  label: string;
  method: FuzzOperation['method'];
  url: string;
  /** A raw body (sent as application/json as it is), or undefined for none. */
  body?: string;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** `query`: the HTTP method QUERY of OpenAPI 3.2 documents (the workflow reports); it carries a body like POST. */
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'query'] as const;

/** Every operation of a service's OpenAPI document. */
export function operationsOf(service: string, doc: OpenApiDocument): FuzzOperation[] {
  const resolve = (schema?: JsonSchema): JsonSchema | undefined => {
    if (!schema?.$ref) return schema;
    return doc.components?.schemas?.[schema.$ref.split('/').pop() as string];
  };
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = op.parameters ?? [];
      operations.push({
        service,
        method,
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodySchema: resolve(op.requestBody?.content?.['application/json']?.schema),
      });
    }
  }
  return operations;
}

/** A plausible value for a schema, so a mutation of one field leaves the others valid-looking. */
export function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 3) return 'x';
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, depth + 1)];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
    default:
      return schema.properties ? plausible({ ...schema, type: 'object' }, depth) : 'x';
  }
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
/** JSON text of `levels` nested arrays: parses to a value deeper than any stack-bound walker survives. */
const deepJson = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/**
 * Members of Object.prototype as field names: a problem collector keyed by field on a plain object
 * answered 500 for them (`problems[field].push is not a function`). Each with a value of its own
 * kind, a number or an object.
 */
export const PROTOTYPE_KEYS: ReadonlyArray<[string, unknown]> = [
  ['__proto__', 1],
  ['constructor', {}],
  ['toString', 1],
  ['hasOwnProperty', {}],
];

/** `object` with `entries` added as own properties (an object literal's `__proto__:` would set the prototype), as JSON. */
export function withOwnKeys(object: unknown, entries: ReadonlyArray<readonly [string, unknown]>): string {
  const copy = { ...(object && typeof object === 'object' && !Array.isArray(object) ? object : {}) };
  for (const [key, value] of entries) Object.defineProperty(copy, key, { value, enumerable: true });
  return JSON.stringify(copy);
}

const WELL_FORMED_PATH_VALUE = '00000000-0000-0000-0000-000000000000';
const PATH_VALUES = [WELL_FORMED_PATH_VALUE, 'not-a-uuid', 'a%00b', '%ED%A0%80', '%E0%A4%A', '..%2F..%2Fetc', 'x'.repeat(600), '%20', '1e309', '-1'];
const QUERY_VALUES = ['a%00b', '%ED%A0%80', '-1', '1e309', 'x'.repeat(5000), '[]', 'true', '%'];

/** One kind of hostile input, with every concrete request of that kind for one operation (which field, which value). */
export interface MutationKind {
  kind: string;
  variants: FuzzRequest[];
}

/**
 * The kinds of hostile input that apply to an operation, each with all its concrete requests: deep
 * nesting, empty and broken bodies, bodies that are not objects, unknown fields, prototype keys, NUL
 * and lone surrogates, nulls, huge numbers, wrong types and over-long strings in every field,
 * hostile path and query values. A kind with no request for this operation (no fields, no path
 * parameter) is left out. The order is fixed; the first request of the first kind is the one the
 * unauthenticated check sends. fast-check's generated values are the last kind (`generatedRequests`).
 */
export function mutationKindsOf(op: FuzzOperation): MutationKind[] {
  const { base, fields, bodied } = bodyOf(op);
  const withField = (field: string, value: unknown) => JSON.stringify({ ...base, [field]: value });
  const request = (label: string, body?: string, pathValue = WELL_FORMED_PATH_VALUE, query?: string): FuzzRequest => ({
    label,
    method: op.method,
    url: urlOf(op, pathValue, query),
    body,
  });
  const inEveryField = (what: string, value: unknown) => fields.map((field) => request(`${field}: ${what}`, withField(field, value)));
  const kinds: MutationKind[] = [];
  const kind = (name: string, variants: FuzzRequest[]) => {
    if (variants.length > 0) kinds.push({ kind: name, variants });
  };

  if (bodied) {
    kind('deep nesting', [request('nested arrays 1,500 deep', deepJson(1500)), request('nested objects 1,500 deep', deepObject(1500))]);
    kind('empty or broken body', [request('empty body'), request('broken JSON', '{"a":')]);
    kind('body not an object', [request('JSON null', 'null'), request('JSON number', '123'), request('array for an object', '[]')]);
    kind('unknown field', [
      request('unknown field', JSON.stringify({ ...base, zzUnknown: 1 })),
      ...(fields.length === 0 ? [request('NUL key', JSON.stringify({ [NUL]: NUL }))] : []),
    ]);
    // Every prototype key in one body (a collector that stumbles on any of them answers 500): alone, and beside a plausible body.
    kind('prototype keys alone', [
      request(
        'prototype keys alone',
        withOwnKeys(
          {},
          PROTOTYPE_KEYS.map(([key]) => [key, 1]),
        ),
      ),
    ]);
    kind('prototype keys in a plausible body', [request('prototype keys in a plausible body', withOwnKeys(base, PROTOTYPE_KEYS))]);
    kind('NUL in a field', inEveryField('NUL', NUL));
    kind('lone surrogate in a field', inEveryField('lone surrogate', LONE_SURROGATE));
    kind('null for a field', inEveryField('null', null));
    kind('huge number for a field', inEveryField('huge number', 1e308));
    kind('wrong type for a field', [...inEveryField('object', { nested: NUL }), ...inEveryField('nested empty arrays', [[]])]);
    kind('over-long string in a field', inEveryField('100k string', 'x'.repeat(100_000)));
  }
  const plainBody = bodied ? JSON.stringify(base ?? {}) : undefined;
  if (op.pathParams.length > 0)
    kind(
      'path value',
      PATH_VALUES.map((value) => request(`path ${value.slice(0, 20)}`, plainBody, value)),
    );
  // Every prototype key in one query string.
  const prototypeQuery = PROTOTYPE_KEYS.map(([key]) => `${key}=1`).join('&');
  kind('prototype keys in the query', [request('prototype keys in the query', plainBody, WELL_FORMED_PATH_VALUE, prototypeQuery)]);
  kind(
    'hostile query value',
    QUERY_VALUES.map((value) => {
      const params = [...op.queryParams, 'pageSize'].map((name) => `${encodeURIComponent(name)}=${value}`).join('&');
      return request(`query ${value.slice(0, 20)}`, plainBody, WELL_FORMED_PATH_VALUE, params);
    }),
  );
  return kinds;
}

/** `count` requests with values fast-check generates (arbitrary JSON, strings with any code unit), the same for a seed. */
export function generatedRequests(op: FuzzOperation, count: number, seed: number): FuzzRequest[] {
  const { base, fields, bodied } = bodyOf(op);
  const generated = fc.sample(
    fc.record({
      field: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('zz'),
      value: fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 })),
      pathValue: fc.oneof(fc.constantFrom(...PATH_VALUES), fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeURIComponentLoosely)),
    }),
    { seed, numRuns: count },
  );
  return generated.map((g, i) => ({
    label: `generated #${i}`,
    method: op.method,
    url: urlOf(op, g.pathValue),
    body: bodied ? JSON.stringify({ ...base, [g.field]: g.value }) : undefined,
  }));
}

/** The plausible body mutations start from, its field names, and whether the method carries a body at all. */
function bodyOf(op: FuzzOperation): { base?: Record<string, unknown>; fields: string[]; bodied: boolean } {
  const base = (op.bodySchema ? plausible(op.bodySchema) : undefined) as Record<string, unknown> | undefined;
  const fields = base && typeof base === 'object' && !Array.isArray(base) ? Object.keys(base) : [];
  return { base, fields, bodied: op.method !== 'get' && op.method !== 'delete' };
}

function urlOf(op: FuzzOperation, pathValue: string, query?: string): string {
  const path = op.pathParams.reduce((p, name) => p.replace(`{${name}}`, pathValue), op.path);
  return query ? `${path}?${query}` : path;
}

/** encodeURIComponent, except that a lone surrogate (which it throws on) is sent as raw bad UTF-8. */
function encodeURIComponentLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

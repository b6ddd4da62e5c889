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

/**
 * `count` requests for one operation, deterministic for a seed: fixed hostile cases first (deep
 * nesting, NUL and lone surrogates in every field, nulls, wrong types, huge numbers, arrays for
 * objects, empty and broken bodies, unknown fields, over-long strings, hostile path and query
 * values), then values fast-check generates (arbitrary JSON, strings with any code unit).
 */
export function mutationsOf(op: FuzzOperation, count: number, seed: number): FuzzRequest[] {
  const base = (op.bodySchema ? plausible(op.bodySchema) : undefined) as Record<string, unknown> | undefined;
  const fields = base && typeof base === 'object' && !Array.isArray(base) ? Object.keys(base) : [];
  const url = (pathValue: string, query?: string) => {
    const path = op.pathParams.reduce((p, name) => p.replace(`{${name}}`, pathValue), op.path);
    return query ? `${path}?${query}` : path;
  };
  const withField = (field: string, value: unknown) => JSON.stringify({ ...base, [field]: value });
  const fixed: FuzzRequest[] = [];
  const add = (label: string, body?: string, pathValue = WELL_FORMED_PATH_VALUE, query?: string) =>
    fixed.push({ label, method: op.method, url: url(pathValue, query), body });

  const bodied = op.method !== 'get' && op.method !== 'delete';
  if (bodied) {
    add('nested arrays 1,500 deep', deepJson(1500));
    add('nested objects 1,500 deep', deepObject(1500));
    add('empty body');
    add('broken JSON', '{"a":');
    add('JSON null', 'null');
    add('JSON number', '123');
    add('array for an object', '[]');
    add('unknown field', JSON.stringify({ ...base, zzUnknown: 1 }));
    // Every prototype key in one body (a collector that stumbles on any of them answers 500): alone, and beside a plausible body.
    add(
      'prototype keys alone',
      withOwnKeys(
        {},
        PROTOTYPE_KEYS.map(([key]) => [key, 1]),
      ),
    );
    add('prototype keys in a plausible body', withOwnKeys(base, PROTOTYPE_KEYS));
    for (const field of fields) {
      add(`${field}: NUL`, withField(field, NUL));
      add(`${field}: lone surrogate`, withField(field, LONE_SURROGATE));
      add(`${field}: null`, withField(field, null));
      add(`${field}: huge number`, withField(field, 1e308));
      add(`${field}: object`, withField(field, { nested: NUL }));
      add(`${field}: nested empty arrays`, withField(field, [[]]));
      add(`${field}: 100k string`, withField(field, 'x'.repeat(100_000)));
    }
    if (fields.length === 0) add('NUL key', JSON.stringify({ [NUL]: NUL }));
  }
  for (const value of PATH_VALUES) if (op.pathParams.length > 0) add(`path ${value.slice(0, 20)}`, bodied ? JSON.stringify(base ?? {}) : undefined, value);
  // Every prototype key in one query string.
  const prototypeQuery = PROTOTYPE_KEYS.map(([key]) => `${key}=1`).join('&');
  add('prototype keys in the query', bodied ? JSON.stringify(base ?? {}) : undefined, WELL_FORMED_PATH_VALUE, prototypeQuery);
  for (const value of QUERY_VALUES) {
    const params = [...op.queryParams, 'pageSize'].map((name) => `${encodeURIComponent(name)}=${value}`).join('&');
    add(`query ${value.slice(0, 20)}`, bodied ? JSON.stringify(base ?? {}) : undefined, WELL_FORMED_PATH_VALUE, params);
  }

  const generated = fc.sample(
    fc.record({
      field: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('zz'),
      value: fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 })),
      pathValue: fc.oneof(fc.constantFrom(...PATH_VALUES), fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeURIComponentLoosely)),
    }),
    { seed, numRuns: Math.max(0, count - Math.min(fixed.length, count)) },
  );
  const sampled = generated.map((g, i) => ({
    label: `generated #${i}`,
    method: op.method,
    url: url(g.pathValue),
    body: bodied ? withField(g.field, g.value) : undefined,
  }));
  return [...fixed, ...sampled].slice(0, Math.max(count, fixed.length));
}

/** encodeURIComponent, except that a lone surrogate (which it throws on) is sent as raw bad UTF-8. */
function encodeURIComponentLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

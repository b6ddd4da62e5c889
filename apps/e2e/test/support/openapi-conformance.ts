import Ajv from 'ajv';
import request from 'supertest';
import { openApiPath, ServiceApp } from '@lp/platform/runtime';

type Schema = Record<string, unknown>;

/** The parts of a served OpenAPI document (3.0 or 3.2) that response validation reads. */
export interface ServedDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components?: { schemas?: Record<string, Schema> };
}

/** The document as a client gets it: `GET /openapi/<service>.json` on the service itself. */
export async function servedDocument(service: ServiceApp): Promise<ServedDocument> {
  const res = await request(service.http).get(openApiPath(service.definition)).expect(200);
  return res.body as ServedDocument;
}

/**
 * Every object schema that lists its `properties` is made closed (`additionalProperties: false`)
 * unless it says otherwise, so a field the service sends but the document does not name fails:
 * a client generated from the document would not know it. Not inside a multi-branch `allOf`,
 * where each branch names only its own part of the object.
 */
function closed(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closed(s, inAllOf));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (key === 'allOf' && Array.isArray(value)) out[key] = value.map((s) => closed(s, value.length > 1));
    else if (key === 'properties' && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value as Schema).map(([name, s]) => [name, closed(s)]));
    else out[key] = closed(value);
  }
  if ('properties' in out && !('additionalProperties' in out) && !inAllOf) out['additionalProperties'] = false;
  return out;
}

/** A supertest response, or any with these fields. */
export interface ResponseLike {
  status: number;
  body: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface ConformanceResult {
  /** What does not match the document; empty when the response conforms. */
  errors: string[];
}

/**
 * Checks one real response against the served document: the operation (method and path template,
 * e.g. `/api/operations/jobs/{jobName}/run`) is documented, it lists the status, and a JSON body
 * matches the status's `application/json` schema with no undocumented field. 3.0 documents are read
 * with their `nullable` keyword, which (as the 3.0 specification says) applies only beside `type`;
 * 3.1+ documents are JSON Schema 2020-12, where null is a `type`. ajv 6 (draft-07) covers every
 * keyword the services emit; `format`s it does not know are skipped.
 */
export function responseConformance(document: ServedDocument, method: string, pathTemplate: string, response: ResponseLike): ConformanceResult {
  const operation = document.paths[pathTemplate]?.[method.toLowerCase()];
  if (!operation) return { errors: [`${method.toUpperCase()} ${pathTemplate} is not in the document`] };
  const documented = operation.responses?.[String(response.status)] ?? operation.responses?.['default'];
  if (!documented) return { errors: [`${method.toUpperCase()} ${pathTemplate} does not document status ${response.status}`] };
  // supertest's `body` is `{}` for an empty response; its `text` tells.
  const hasBody = typeof response.text === 'string' ? response.text.length > 0 : response.body !== undefined;
  const contentType = response.headers?.['content-type']?.split(';')[0]?.trim();
  const media = documented.content?.[contentType ?? 'application/json'] ?? documented.content?.['application/json'];
  if (!media?.schema) {
    return hasBody ? { errors: [`${method.toUpperCase()} ${pathTemplate} ${response.status} answers a body but documents none`] } : { errors: [] };
  }
  const ajv = new Ajv({ allErrors: true, nullable: document.openapi.startsWith('3.0'), unknownFormats: 'ignore' });
  // The components travel with the schema so its `#/components/schemas/...` references resolve in place.
  const validate = ajv.compile({ ...(closed(media.schema) as Schema), components: closed(document.components ?? {}) });
  if (validate(response.body)) return { errors: [] };
  return { errors: (validate.errors ?? []).map((e) => `${e.dataPath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`) };
}

/** Fails the test with every mismatch when a response does not conform to the served document. */
export function expectConformance(document: ServedDocument, method: string, pathTemplate: string, response: ResponseLike): void {
  expect({ [`${method.toUpperCase()} ${pathTemplate} ${response.status}`]: responseConformance(document, method, pathTemplate, response).errors }).toEqual({
    [`${method.toUpperCase()} ${pathTemplate} ${response.status}`]: [],
  });
}

import { z } from 'zod';
import { ValidationError } from '../domain-error';
import { parseMessage, problemsOf, trustedCallerSchema } from './message-schema';

/** Keys every plain object inherits: a body may name them like any other field. */
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

describe('problemsOf', () => {
  const schema = z.strictObject({ name: z.string(), nested: z.strictObject({ n: z.number() }).optional() });

  it.each(PROTOTYPE_KEYS)('reports an unknown %s under its own name, not as a member of Object.prototype', (key) => {
    const result = schema.safeParse(JSON.parse(`{"name":"a","${key}":{}}`));
    expect(result.success).toBe(false);
    if (result.success) return;
    const problems = problemsOf(result.error, 'body');
    expect(Object.keys(problems)).toEqual([key]);
    expect(Object.getOwnPropertyDescriptor(problems, key)?.value).toEqual([`property ${key} should not exist`]);
    expect(JSON.parse(JSON.stringify(problems))).toEqual(JSON.parse(`{"${key}":["property ${key} should not exist"]}`));
  });

  it('lists a prototype key beside the other problems of the body, and under a nested object', () => {
    const result = schema.safeParse(JSON.parse('{"constructor":1,"nested":{"n":1,"__proto__":1}}'));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(Object.keys(problemsOf(result.error, 'body')).sort()).toEqual(['constructor', 'name', 'nested.__proto__']);
  });

  it('turns an RPC payload with a prototype key into a Validation.Failed naming it', () => {
    const message = z.strictObject({ payload: schema });
    expect.assertions(2);
    try {
      parseMessage(message, JSON.parse('{"payload":{"name":"a","hasOwnProperty":1}}'));
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual({ hasOwnProperty: ['property hasOwnProperty should not exist'] });
    }
  });
});

describe('trustedCallerSchema', () => {
  const caller = { kind: 'user', subject: 'alice', tenantId: 'default', scopes: [], claimsDigest: 'd' };

  it.each(['Default', 'default ', '../default', 'default\u0000', 'd'.repeat(300), ''])('refuses a caller of tenant %j (the tenant id rule)', (tenantId) => {
    const result = trustedCallerSchema.safeParse({ ...caller, tenantId });
    expect(result.success).toBe(false);
    if (!result.success) expect(Object.keys(problemsOf(result.error))).toEqual(['tenantId']);
  });

  it('accepts a tenant id of the rule', () => {
    expect(trustedCallerSchema.parse({ ...caller, tenantId: 'acme_2-x' }).tenantId).toBe('acme_2-x');
  });
});

import { z } from 'zod';
import { problemsOf } from '@lp/contracts';
import { rotateSecretSchema, subscriptionSchemas } from './subscription.schemas';

const valid = { callbackUrl: 'https://hooks.example.com/in?team=7', eventTypes: ['ticket.*', 'case.created', '*.completed'] };
const development = subscriptionSchemas({ requireHttps: false });
const production = subscriptionSchemas({ requireHttps: true });

/** What the route answers for `input`: the problems per field (as `Validation.Failed` lists them), or none. */
function problems(schema: z.ZodType, input: unknown): Record<string, string[]> | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : problemsOf(result.error, 'body');
}

describe('subscription bodies', () => {
  it('accepts a valid subscription, leaving the rest to defaults', () => {
    expect(development.create.parse(valid)).toEqual(valid);
    expect(development.create.parse({ ...valid, description: null, isActive: false, maxRetries: null })).toMatchObject({ maxRetries: null });
    expect(production.create.parse({ ...valid, maxRetries: 25, description: 'x'.repeat(500) })).toMatchObject({ maxRetries: 25 });
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a relative URL', { callbackUrl: '/hooks' }, 'callbackUrl', /absolute URL/],
    ['another scheme', { callbackUrl: 'ftp://example.com/in' }, 'callbackUrl', /http: or https:/],
    ['a javascript: URL', { callbackUrl: 'javascript:alert(1)' }, 'callbackUrl', /http: or https:/],
    ['credentials in the URL', { callbackUrl: 'https://user:pw@example.com/in' }, 'callbackUrl', /credentials/],
    ['a user without password', { callbackUrl: 'https://user@example.com/in' }, 'callbackUrl', /credentials/],
    ['a fragment', { callbackUrl: 'https://example.com/in#part' }, 'callbackUrl', /fragment/],
    ['an empty fragment', { callbackUrl: 'https://example.com/in#' }, 'callbackUrl', /fragment/],
    ['spaces', { callbackUrl: ' https://example.com/in' }, 'callbackUrl', /whitespace/],
    ['a URL over 2048 characters', { callbackUrl: `https://example.com/${'a'.repeat(2030)}` }, 'callbackUrl', /at most 2048/],
    ['a URL that is not a string', { callbackUrl: 42 }, 'callbackUrl', /must be a string/],
    ['no event types', { eventTypes: [] }, 'eventTypes', /at least one/],
    ['event types not an array', { eventTypes: 'ticket.*' }, 'eventTypes', /array/],
    ['51 event types', { eventTypes: Array.from({ length: 51 }, (_, i) => `ticket.e${i}`) }, 'eventTypes', /at most 50/],
    ['an unknown module', { eventTypes: ['ticket.*', 'payroll.*'] }, 'eventTypes[1]', /unknown module "payroll"/],
    ['a wildcard in the middle', { eventTypes: ['ticket.*.created'] }, 'eventTypes[0]', /wildcard stands alone/],
    ['a duplicate pattern', { eventTypes: ['ticket.*', 'case.created', 'ticket.*'] }, 'eventTypes[2]', /duplicates eventTypes\[0\]/],
    ['an event type that is not a string', { eventTypes: [7] }, 'eventTypes[0]', /must be a string/],
    ['maxRetries over 25', { maxRetries: 26 }, 'maxRetries', /0\.\.25/],
    ['negative maxRetries', { maxRetries: -1 }, 'maxRetries', /0\.\.25/],
    ['fractional maxRetries', { maxRetries: 2.5 }, 'maxRetries', /0\.\.25/],
    ['a description over 500 characters', { description: 'x'.repeat(501) }, 'description', /at most 500/],
    ['isActive as a string', { isActive: 'true' }, 'isActive', /true or false/],
  ])('refuses %s under its field', (_what, change, field, message) => {
    const found = problems(development.create, { ...valid, ...change });
    expect(Object.keys(found ?? {})).toEqual([field]);
    expect(found?.[field]?.join(' ')).toMatch(message);
  });

  // Each passed validation and then failed the table's CHECK (callback_url ~ '^https?://') with a 500.
  it.each([
    ['HTTP://127.0.0.1/x', 'http://127.0.0.1/x'],
    ['http:/127.0.0.1/x', 'http://127.0.0.1/x'],
    ['http:\\\\127.0.0.1\\x', 'http://127.0.0.1/x'],
    ['HTTPS://Hooks.Example.COM:443/in?team=7', 'https://hooks.example.com/in?team=7'],
    ['https://example.com', 'https://example.com/'],
    ['https://bücher.example/ä', 'https://xn--bcher-kva.example/%C3%A4'],
  ])('stores %s as its WHATWG serialization %s', (given, stored) => {
    expect(development.create.parse({ ...valid, callbackUrl: given }).callbackUrl).toBe(stored);
    expect(development.update.parse({ callbackUrl: given }).callbackUrl).toBe(stored);
    expect(stored).toMatch(/^https?:\/\//);
  });

  it('holds the length limit for the normalized form', () => {
    const url = `https://example.com/${'ä'.repeat(700)}`;
    expect(url.length).toBeLessThan(2048);
    expect(problems(development.create, { ...valid, callbackUrl: url })).toEqual({
      callbackUrl: ['callbackUrl must be at most 2048 characters once normalized'],
    });
  });

  it('requires https: in production even for HTTP: in capitals', () => {
    expect(Object.keys(problems(production.create, { ...valid, callbackUrl: 'HTTP://example.com/in' }) ?? {})).toEqual(['callbackUrl']);
  });

  it('requires https: in production, as a field error beside the others', () => {
    expect(problems(production.create, { ...valid, callbackUrl: 'http://example.com/in', maxRetries: 99 })).toEqual({
      callbackUrl: ['callbackUrl must use https: in production'],
      maxRetries: [expect.stringMatching(/0\.\.25/)],
    });
    expect(problems(development.create, { ...valid, callbackUrl: 'http://127.0.0.1:9000/in' })).toBeUndefined();
  });

  it('names each missing field and each unknown one', () => {
    expect(Object.keys(problems(development.create, {}) ?? {}).sort()).toEqual(['callbackUrl', 'eventTypes']);
    expect(problems(development.create, { ...valid, secret: 'mine', tenantId: 'other' })).toEqual({
      secret: ['property secret should not exist'],
      tenantId: ['property tenantId should not exist'],
    });
  });

  it('takes any subset on update, but not nothing', () => {
    expect(development.update.parse({ maxRetries: null })).toEqual({ maxRetries: null });
    expect(development.update.parse({ isActive: true, eventTypes: ['chat.*'] })).toEqual({ isActive: true, eventTypes: ['chat.*'] });
    expect(Object.keys(problems(development.update, {}) ?? {})).toEqual(['body']);
    expect(Object.keys(problems(development.update, { eventTypes: [] }) ?? {})).toEqual(['eventTypes']);
    expect(Object.keys(problems(production.update, { callbackUrl: 'http://example.com' }) ?? {})).toEqual(['callbackUrl']);
    expect(Object.keys(problems(development.update, { revision: 3 }) ?? {})).toEqual(['revision']);
  });

  it('takes an optional overlap on rotate, 0..30 days', () => {
    expect(rotateSecretSchema.parse(undefined)).toEqual({});
    expect(rotateSecretSchema.parse({ overlapSeconds: 0 })).toEqual({ overlapSeconds: 0 });
    expect(rotateSecretSchema.parse({ overlapSeconds: 2_592_000 })).toEqual({ overlapSeconds: 2_592_000 });
    expect(Object.keys(problems(rotateSecretSchema, { overlapSeconds: 2_592_001 }) ?? {})).toEqual(['overlapSeconds']);
    expect(Object.keys(problems(rotateSecretSchema, { overlapSeconds: -1 }) ?? {})).toEqual(['overlapSeconds']);
    expect(Object.keys(problems(rotateSecretSchema, { overlap: 5 }) ?? {})).toEqual(['overlap']);
  });
});

import { z } from 'zod';
import { problemsOf } from '../messaging/message-schema';
import { createCaseSchema } from './case-model';

const valid = { title: ' Acme v. Globex ', caseType: 'commercial', claimAmount: 1250.5, defendantName: 'Globex' };

/** What `POST /api/cases` and `cases.create` answer with for `input`: the problems per field, or none. */
function problems(input: unknown): Record<string, string[]> | undefined {
  const result = createCaseSchema.safeParse(input);
  return result.success ? undefined : problemsOf(result.error as z.ZodError, 'body');
}

describe('createCaseSchema (one validation for HTTP and RPC)', () => {
  it('accepts a valid case, trimmed, leaving the currency to the service default', () => {
    expect(createCaseSchema.parse(valid)).toEqual({ title: 'Acme v. Globex', caseType: 'commercial', claimAmount: 1250.5, defendantName: 'Globex' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a claim amount of 0', { claimAmount: 0 }, 'claimAmount'],
    ['a negative claim amount', { claimAmount: -5 }, 'claimAmount'],
    ['a claim amount as a string', { claimAmount: '100' }, 'claimAmount'],
    ['three decimals', { claimAmount: 1.005 }, 'claimAmount'],
    ['an infinite amount', { claimAmount: Number.POSITIVE_INFINITY }, 'claimAmount'],
    ['an unknown case type', { caseType: 'criminal' }, 'caseType'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a lower-case currency', { currency: 'usd' }, 'currency'],
    ['a control character in the defendant', { defendantName: 'Glo\u0007bex' }, 'defendantName'],
  ])('refuses %s under its field', (_what, change, field) => {
    expect(Object.keys(problems({ ...valid, ...change }) ?? {})).toEqual([field]);
  });

  it('names each missing field', () => {
    expect(Object.keys(problems({}) ?? {}).sort()).toEqual(['caseType', 'claimAmount', 'defendantName', 'title']);
  });

  it('reports each unknown field under its own name, as the HTTP validation pipe does', () => {
    expect(problems({ ...valid, owner: 'mallory', tenantId: 'other' })).toEqual({
      owner: ['property owner should not exist'],
      tenantId: ['property tenantId should not exist'],
    });
  });

  it('reports a body that is not an object under the root name', () => {
    expect(Object.keys(problems([valid]) ?? {})).toEqual(['body']);
  });
});

import { AuthorizationUnavailableError, DecisionResult, NotFoundError } from '@lp/contracts';
import { decidedOrUnavailable, unlessUnavailable } from './decision-outage';

const result = (extra: Partial<DecisionResult> = {}): DecisionResult => ({
  outcome: 'Deny',
  permitted: false,
  decisionId: 'd-1',
  evaluations: [],
  obligations: [],
  dataScope: { kind: 'none', tenantId: 't' },
  cached: false,
  ...extra,
});

describe('the decision routes read an outage as the guard does', () => {
  it('answers a decision that failed closed, alone or in a batch, with 503 Authorization.Unavailable', async () => {
    await expect(decidedOrUnavailable(Promise.resolve(result({ failure: 'PolicyStoreUnavailable' })))).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    await expect(decidedOrUnavailable(Promise.resolve([result(), result({ failure: 'AuditUnavailable' })]))).rejects.toMatchObject({
      code: 'Authorization.Unavailable',
      status: 503,
      retryAfterSeconds: 1,
    });
  });

  it('answers a store or cache gone while deciding (a refused or dropped connection) with the same 503', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    const dropped = new Error('Connection terminated unexpectedly');
    for (const error of [refused, dropped]) {
      await expect(decidedOrUnavailable(Promise.reject(error))).rejects.toBeInstanceOf(AuthorizationUnavailableError);
      await expect(unlessUnavailable(Promise.reject(error))).rejects.toBeInstanceOf(AuthorizationUnavailableError);
    }
  });

  it('passes an answer, a client error and a bug through unchanged', async () => {
    const deny = result();
    await expect(decidedOrUnavailable(Promise.resolve(deny))).resolves.toBe(deny);
    const notFound = new NotFoundError('x');
    await expect(decidedOrUnavailable(Promise.reject(notFound))).rejects.toBe(notFound);
    const bug = new TypeError('undefined is not a function');
    await expect(decidedOrUnavailable(Promise.reject(bug))).rejects.toBe(bug);
  });
});

import { AuthorizationAction } from './authorization-action';
import type { DecisionRequest } from './decision';
import { validateDecisionRequest } from './decision-request';

describe('validateDecisionRequest', () => {
  const raw = {
    caller: { kind: 'user', subject: 'alice', tenantId: 't1', claimsDigest: 'd' },
    resource: { module: 'Cases', resourceType: 'Case' },
    action: AuthorizationAction.View,
  } as unknown as DecisionRequest;

  it('normalizes a raw request into a new object', () => {
    const valid = validateDecisionRequest(raw);
    expect(valid).not.toBe(raw);
    expect(valid.resource).toMatchObject({ module: 'cases', resourceType: 'case' });
    expect(valid.caller.scopes).toEqual([]);
  });

  it('still checks a copy of a valid request', () => {
    const valid = validateDecisionRequest(raw);
    expect(() => validateDecisionRequest({ ...valid, action: 'Launch' })).toThrow(/not valid/);
  });
});

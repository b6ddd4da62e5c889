import { AuthorizationAction, DecisionRequest } from '@lp/contracts';
import { DecisionExplanation } from '../../engine';
import { DecisionExplanationResponse } from './decision-explanation.response';

/** What leaves over HTTP of an `authz.explain` trace: the caller's own facts, no error texts, no claims digest. */
describe('DecisionExplanationResponse.of', () => {
  const request: DecisionRequest = {
    caller: { kind: 'delegated', subject: 'alice', tenantId: 't1', scopes: ['cases'], actor: 'agent-1', grantId: 'g-1', claimsDigest: 'digest', expiresAt: 1 },
    resource: { module: 'cases', resourceType: 'case' },
    action: AuthorizationAction.View,
    correlationId: 'corr-1',
  };
  const dataScope = { kind: 'none', tenantId: 't1' } as const;
  const explanation: DecisionExplanation = {
    decision: {
      outcome: 'Deny',
      permitted: false,
      decisionId: 'd-1',
      evaluations: [
        { evaluator: 'RBAC', verdict: 'Deny', reason: 'subject permission store unavailable (fail-closed)' },
        { evaluator: 'ABAC', verdict: 'Deny', reason: 'evaluator failed (fail-closed)' },
      ],
      obligations: [],
      dataScope,
      cached: false,
      failure: 'EvaluatorFailed',
    },
    request,
    permissionCode: 'cases.case.view',
    evaluatedAt: '2026-01-01T00:00:00.000Z',
    evaluators: [
      {
        evaluator: 'RBAC',
        verdict: 'Deny',
        reason: 'subject permission store unavailable (fail-closed)',
        inputs: { subject: 'alice', storeError: 'Error: password authentication failed for user "authz" at db.internal:5432' },
        storeFailure: 'subjectPermissions',
      },
      { evaluator: 'ABAC', verdict: 'Deny', reason: 'evaluator failed (fail-closed)', inputs: {}, error: 'TypeError: secret detail' },
    ],
    merge: { outcome: 'Deny', permitted: false, rule: 'AnyDeny', denialReasons: ['RBAC: subject permission store unavailable (fail-closed)'], obligations: [] },
    dataScope: { dataScope, rule: 'not-permitted', candidates: [] },
  };

  it('keeps the store and evaluator error texts, the claims digest and the token expiry inside', () => {
    const response = DecisionExplanationResponse.of(explanation);
    expect(JSON.stringify(response)).not.toMatch(/password|db\.internal|secret detail|digest|expiresAt/);
    expect(response.question.caller).toEqual({ kind: 'delegated', subject: 'alice', tenantId: 't1', scopes: ['cases'], actor: 'agent-1', grantId: 'g-1' });
    expect(response.evaluators[0]).toEqual({
      evaluator: 'RBAC',
      verdict: 'Deny',
      reason: 'subject permission store unavailable (fail-closed)',
      inputs: { subject: 'alice' },
      storeFailure: 'subjectPermissions',
    });
    expect(response.evaluators[1]).toMatchObject({ evaluator: 'ABAC', failed: true });
    // The engine's trace is not altered by the copy.
    expect(explanation.evaluators[0]!.inputs['storeError']).toBeDefined();
  });

  it('answers the decision as POST /decisions does', () => {
    expect(DecisionExplanationResponse.of(explanation).decision).toEqual({
      outcome: 'Deny',
      decisionId: 'd-1',
      reasons: explanation.decision.evaluations.map(({ evaluator, verdict, reason }) => ({ evaluator, verdict, reason })),
      dataScope,
    });
  });
});

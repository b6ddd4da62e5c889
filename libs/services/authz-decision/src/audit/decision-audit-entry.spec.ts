import { AuthorizationAction, DecisionResult } from '@lp/contracts';
import { decisionAuditEntry, reasonCodeOf } from './decision-audit-entry';

describe('reasonCodeOf', () => {
  it.each([
    [{ outcome: 'Permit' as const }, 'AnyAllow'],
    [{ outcome: 'Deny' as const }, 'AnyDeny'],
    [{ outcome: 'NoMatchingPolicy' as const }, 'AllNeutral'],
    [{ outcome: 'Deny' as const, reason: 'DelegationNotCovered: a delegated caller is permitted only through its grant' }, 'DelegationNotCovered'],
    [{ outcome: 'Deny' as const, reason: 'GrantExpiredInFlight: a grant expired' }, 'GrantExpiredInFlight'],
    [{ outcome: 'Deny' as const, reason: 'TenantSuspended: tenant acme is suspended' }, 'TenantSuspended'],
    [{ outcome: 'Deny' as const, reason: 'TenantStatusUnavailable: could not be read' }, 'TenantStatusUnavailable'],
    // A reason that names no merge rule falls back to the outcome's rule.
    [{ outcome: 'Deny' as const, reason: 'something else: text' }, 'AnyDeny'],
    [{ outcome: 'Deny' as const, reason: 'no colon' }, 'AnyDeny'],
  ])('%j -> %s', (result, code) => {
    expect(reasonCodeOf(result)).toBe(code);
  });

  it('is kept on the audit entry with the refusal text', () => {
    const result: DecisionResult = {
      outcome: 'Deny',
      permitted: false,
      decisionId: '5f0c6a3e-9c1d-4c55-8a8e-7f1f7f1f7f1f',
      evaluations: [{ evaluator: 'RBAC', verdict: 'Neutral', reason: 'permission absent' }],
      obligations: [],
      dataScope: { kind: 'none', tenantId: 'acme' },
      cached: false,
      reason: 'TenantSuspended: tenant acme is suspended',
    };
    const request = {
      caller: { kind: 'user' as const, subject: 'ann', tenantId: 'acme', scopes: [], claimsDigest: 'd' },
      resource: { module: 'cases', resourceType: 'case' },
      action: AuthorizationAction.View,
    };
    expect(decisionAuditEntry(request, result, { decidedAt: new Date(0), latencyMs: 1 })).toEqual(
      expect.objectContaining({ outcome: 'Deny', reasonCode: 'TenantSuspended', reason: 'TenantSuspended: tenant acme is suspended' }),
    );
  });
});

import { ValidationError } from '@lp/contracts';
import { DataSource } from 'typeorm';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { RoleBinding } from '../engine/policy-facts';
import { PolicySimulator, SimulationCatalog } from './policy-simulator';

const T = 't1';

const catalog: SimulationCatalog = {
  roles: async (tenantId, names) =>
    tenantId === T
      ? names.filter((n) => n === 'clerk').map((): RoleBinding => ({ roleName: 'clerk', dataScope: 'own', permissions: ['cases.case.view'] }))
      : [],
  knownPermissions: async (codes) => codes.filter((c) => c.startsWith('cases.')),
  definedFeatures: async (codes) => codes.filter((c) => c === 'tickets'),
  abacRuleIds: async (tenantId, ids) => (tenantId === T ? ids.filter((i) => i === 'r1') : []),
};

function simulator(): PolicySimulator {
  const facts = InMemoryPolicyFacts.fromSnapshot({ tenants: { [T]: { roles: { clerk: { dataScope: 'own', permissions: ['cases.case.view'] } } } } });
  return new PolicySimulator({} as DataSource, () => facts, catalog);
}

const request = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };

describe('PolicySimulator', () => {
  it('decides a user subject of the tenant with the overlay, and without it', async () => {
    await expect(simulator().simulate(T, 'bob', request, {})).resolves.toEqual(expect.objectContaining({ outcome: 'NoMatchingPolicy', permitted: false }));
    const result = await simulator().simulate(T, 'bob', request, { addRoleBindings: [{ subject: 'bob', roleName: 'clerk' }] });
    expect(result).toEqual(expect.objectContaining({ outcome: 'Permit', dataScope: { kind: 'own', tenantId: T, subject: 'bob' } }));
    expect(result).not.toHaveProperty('decisionId');
  });

  it('shows the denial a suspended tenant would get: suspension is a fact an overlay does not lift', async () => {
    const facts = InMemoryPolicyFacts.fromSnapshot({ tenants: { [T]: { roles: { clerk: { dataScope: 'own', permissions: ['cases.case.view'] } } } } });
    facts.setTenantSuspended(T, true);
    const suspended = new PolicySimulator({} as DataSource, () => facts, catalog);
    const result = await suspended.simulate(T, 'bob', request, { addRoleBindings: [{ subject: 'bob', roleName: 'clerk' }] });
    expect(result).toEqual(expect.objectContaining({ outcome: 'Deny', permitted: false }));
  });

  it('refuses references the stores do not know, each under its own field', async () => {
    const attempt = simulator().simulate(T, 'bob', request, {
      addRoleBindings: [{ subject: 'bob', roleName: 'ghost' }],
      addRolePermissions: [{ roleName: 'clerk', permissionCode: 'x.y.view' }],
      features: [{ code: 'nope', enabled: true }],
      abacRules: { remove: ['r9'] },
    });
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toEqual(
      expect.objectContaining({
        errors: expect.objectContaining({
          'overlay.roleName': [expect.stringContaining('ghost')],
          'overlay.permissionCode': [expect.stringContaining('x.y.view')],
          'overlay.features': [expect.stringContaining('nope')],
          'overlay.abacRules.remove': [expect.stringContaining('r9')],
        }),
      }),
    );
  });

  it("resolves roles in the caller's tenant only", async () => {
    await expect(simulator().simulate('t2', 'bob', request, { addRoleBindings: [{ subject: 'bob', roleName: 'clerk' }] })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('refuses a bad subject or request before reading anything', async () => {
    await expect(simulator().simulate(T, '', request, {})).rejects.toEqual(
      expect.objectContaining({ errors: expect.objectContaining({ subject: expect.any(Array) }) }),
    );
    await expect(simulator().simulate(T, 'bob', { resource: { module: 'Bad Module', resourceType: 'case' }, action: 'View' }, {})).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  describe('caller kinds', () => {
    const bound = { addRoleBindings: [{ subject: 'alice', roleName: 'clerk' }] };

    it('decides an application by the scopes its token would carry (AppScope), never by role bindings', async () => {
      const scoped = await simulator().simulate(T, 'billing-app', request, {}, { callerKind: 'application', scopes: ['cases.case.view'] });
      expect(scoped).toEqual(expect.objectContaining({ outcome: 'Permit', permitted: true }));
      expect(scoped.evaluations).toEqual(expect.arrayContaining([expect.objectContaining({ evaluator: 'AppScope', verdict: 'Allow' })]));
      const unscoped = await simulator().simulate(
        T,
        'billing-app',
        request,
        { addRoleBindings: [{ subject: 'billing-app', roleName: 'clerk' }] },
        { callerKind: 'application' },
      );
      expect(unscoped.permitted).toBe(false);
    });

    it('decides a delegated caller through an active grant from the subject to the actor, and only for that actor', async () => {
      const facts = InMemoryPolicyFacts.fromSnapshot({ tenants: { [T]: { roles: { clerk: { dataScope: 'own', permissions: ['cases.case.view'] } } } } });
      facts.delegate(T, 'alice', { grantId: 'dg-1', actor: 'bob', permissions: ['cases.case.view'], expiresAt: new Date(Date.now() + 3_600_000) });
      const withGrant = new PolicySimulator({} as DataSource, () => facts, catalog);
      const asBob = await withGrant.simulate(T, 'alice', request, bound, { callerKind: 'delegated', actor: 'bob' });
      expect(asBob).toEqual(expect.objectContaining({ outcome: 'Permit' }));
      expect(asBob.evaluations).toEqual(expect.arrayContaining([expect.objectContaining({ evaluator: 'RBAC', reason: expect.stringContaining('dg-1') })]));
      const asCarol = await withGrant.simulate(T, 'alice', request, bound, { callerKind: 'delegated', actor: 'carol' });
      expect(asCarol.permitted).toBe(false);
      const otherGrant = await withGrant.simulate(T, 'alice', request, bound, { callerKind: 'delegated', actor: 'bob', grantId: 'dg-9' });
      expect(otherGrant.permitted).toBe(false);
    });

    it.each([
      [{ callerKind: 'delegated' as const }, 'actor'],
      [{ actor: 'bob' }, 'actor'],
      [{ scopes: ['cases.case.view'] }, 'scopes'],
      [{ callerKind: 'delegated' as const, actor: 'bob', scopes: ['cases.case.view'] }, 'scopes'],
      [{ callerKind: 'application' as const, actor: 'bob' }, 'actor'],
      [{ callerKind: 'application' as const, grantId: 'dg-1' }, 'grantId'],
      [{ clientId: 'app' }, 'clientId'],
      [{ callerKind: 'robot' as never }, 'callerKind'],
    ])('refuses the caller %j under %s', async (who, field) => {
      await expect(simulator().simulate(T, 'alice', request, {}, who)).rejects.toEqual(
        expect.objectContaining({ errors: expect.objectContaining({ [field]: expect.any(Array) }) }),
      );
    });
  });

  it.each([
    [{ sample: 0 }, 'sample'],
    [{ sample: 501 }, 'sample'],
    [{ from: 'nope' }, 'from'],
    [{ from: '2030-02-01T00:00:00Z', to: '2030-01-01T00:00:00Z' }, 'to'],
  ])('refuses the replay window %j', async (payload, field) => {
    await expect(simulator().replay(T, { overlay: {}, ...payload })).rejects.toEqual(
      expect.objectContaining({ errors: expect.objectContaining({ [field]: expect.any(Array) }) }),
    );
  });
});

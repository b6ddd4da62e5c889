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

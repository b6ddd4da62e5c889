import { AbacField, AbacOperator, AbacVerdict } from '../src/engine/abac-rule';
import { InMemoryPolicyFacts } from './in-memory-policy-facts';
import { POLICY_STORE_NAMES, PolicyStoreUnavailableError } from '../src/engine/policy-facts';

describe('InMemoryPolicyFacts', () => {
  it('loads a snapshot: roles through bindings, grants with instants, rules with enum names or integers', async () => {
    const facts = InMemoryPolicyFacts.fromSnapshot({
      featureDefaults: { tickets: true },
      tenants: {
        t1: {
          roles: { agent: { dataScope: 'own', permissions: ['tickets.ticket.view'] } },
          bindings: { alice: ['agent', 'ghost-role'] },
          offices: { alice: ['o1'] },
          temporaryGrants: { alice: [{ grantId: 'g', permissions: ['x.y.view'], expiresAt: '2026-01-01T00:00:00.000Z' }] },
          delegatedGrants: { alice: [{ grantId: 'd', actor: 'bob', permissions: ['x.y.view'], expiresAt: '2026-01-02T00:00:00.000Z' }] },
          abacRules: [
            { id: 'named', priority: 1, verdict: 'Deny', conditions: [{ field: 'ResourceAmount', operator: 'GreaterThan', value: 5 }] },
            { id: 'numeric', priority: 2, verdict: 1, conditions: [{ field: 1, operator: 1, value: 'open' }] },
          ],
          featureOverrides: { tickets: false },
        },
      },
    });
    await expect(facts.permissionsOfSubject('t1', 'alice')).resolves.toEqual({
      roles: [{ roleName: 'agent', dataScope: 'own', permissions: ['tickets.ticket.view'] }],
      temporaryGrants: [{ grantId: 'g', permissions: ['x.y.view'], expiresAt: new Date('2026-01-01T00:00:00.000Z') }],
      delegatedGrants: [{ grantId: 'd', actor: 'bob', permissions: ['x.y.view'], expiresAt: new Date('2026-01-02T00:00:00.000Z') }],
      officeIds: ['o1'],
    });
    const rules = await facts.abacRules('t1');
    expect(rules.map((r) => [r.verdict, r.conditions[0]!.field, r.conditions[0]!.operator])).toEqual([
      [AbacVerdict.Deny, AbacField.ResourceAmount, AbacOperator.GreaterThan],
      [AbacVerdict.Allow, AbacField.ResourceStatus, AbacOperator.Equals],
    ]);
    await expect(facts.featureEnabled('t1', 'tickets')).resolves.toBe(false);
    await expect(facts.featureEnabled('t2', 'tickets')).resolves.toBe(true);
    await expect(facts.featureEnabled('t1', 'chat')).resolves.toBeUndefined();
  });

  it('refuses an unknown enumeration name in a snapshot', () => {
    expect(() =>
      InMemoryPolicyFacts.fromSnapshot({ tenants: { t1: { abacRules: [{ id: 'r', priority: 1, verdict: 'Permit' as 'Allow', conditions: [] }] } } }),
    ).toThrow(/Unknown ABAC verdict "Permit"/);
  });

  it('returns only the relations of that subject to that instance, in that tenant', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.addRelation('t1', { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'owner' });
    facts.addRelation('t1', { subject: 'alice', resourceType: 'case', resourceId: 'c2', relation: 'owner' });
    facts.addRelation('t1', { subject: 'bob', resourceType: 'case', resourceId: 'c1', relation: 'viewer' });
    facts.addRelation('t2', { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'member' });
    await expect(facts.relations('t1', 'alice', 'case', 'c1')).resolves.toEqual([
      { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'owner' },
    ]);
  });

  it('applies changes: role deletion unbinds, grants and rules are replaced by id', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.apply({ op: 'defineRole', tenantId: 't1', roleName: 'r', dataScope: 'tenant', permissions: ['a.b.view'] });
    facts.apply({ op: 'bindRole', tenantId: 't1', subject: 'alice', roleName: 'r' });
    facts.apply({ op: 'bindRole', tenantId: 't1', subject: 'alice', roleName: 'r' });
    expect((await facts.permissionsOfSubject('t1', 'alice')).roles).toHaveLength(1);
    facts.apply({ op: 'deleteRole', tenantId: 't1', roleName: 'r' });
    facts.apply({ op: 'defineRole', tenantId: 't1', roleName: 'r', dataScope: 'tenant', permissions: ['a.b.view'] });
    expect((await facts.permissionsOfSubject('t1', 'alice')).roles).toEqual([]);

    facts.apply({ op: 'grantTemporary', tenantId: 't1', subject: 'alice', grant: { grantId: 'g', permissions: ['a'], expiresAt: '2026-01-01T00:00:00Z' } });
    facts.apply({ op: 'grantTemporary', tenantId: 't1', subject: 'alice', grant: { grantId: 'g', permissions: ['b'], expiresAt: '2026-01-01T00:00:00Z' } });
    expect((await facts.permissionsOfSubject('t1', 'alice')).temporaryGrants.map((g) => g.permissions)).toEqual([['b']]);
    facts.apply({ op: 'revokeTemporary', tenantId: 't1', subject: 'alice', grantId: 'g' });
    expect((await facts.permissionsOfSubject('t1', 'alice')).temporaryGrants).toEqual([]);

    facts.apply({
      op: 'delegate',
      tenantId: 't1',
      delegator: 'alice',
      grant: { grantId: 'd', actor: 'bob', permissions: ['a'], expiresAt: '2026-01-01T00:00:00Z' },
    });
    facts.apply({ op: 'revokeDelegation', tenantId: 't1', delegator: 'alice', grantId: 'd' });
    expect((await facts.permissionsOfSubject('t1', 'alice')).delegatedGrants).toEqual([]);

    facts.apply({ op: 'putAbacRule', tenantId: 't1', rule: { id: 'x', priority: 1, verdict: 'Allow', conditions: [] } });
    facts.apply({ op: 'putAbacRule', tenantId: 't1', rule: { id: 'x', priority: 1, verdict: 'Deny', conditions: [] } });
    expect((await facts.abacRules('t1')).map((r) => r.verdict)).toEqual([AbacVerdict.Deny]);
    facts.apply({ op: 'deleteAbacRule', tenantId: 't1', ruleId: 'x' });
    expect(await facts.abacRules('t1')).toEqual([]);

    facts.apply({ op: 'setFeatureDefault', featureCode: 'chat', enabled: true });
    facts.apply({ op: 'setFeatureOverride', tenantId: 't1', featureCode: 'chat', enabled: false });
    expect(await facts.featureEnabled('t1', 'chat')).toBe(false);
    facts.apply({ op: 'setFeatureOverride', tenantId: 't1', featureCode: 'chat', enabled: null });
    expect(await facts.featureEnabled('t1', 'chat')).toBe(true);
    facts.apply({ op: 'setFeatureDefault', featureCode: 'chat', enabled: null });
    expect(await facts.featureEnabled('t1', 'chat')).toBeUndefined();
  });

  it('does not change what an earlier read returned', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.addRelation('t1', { subject: 'a', resourceType: 'case', resourceId: 'c', relation: 'owner' });
    const before = await facts.relations('t1', 'a', 'case', 'c');
    facts.removeRelation('t1', { subject: 'a', resourceType: 'case', resourceId: 'c', relation: 'owner' });
    expect(before).toHaveLength(1);
  });

  it.each(POLICY_STORE_NAMES.map((s) => [s]))('fails only the %s store until restored, counting reads', async (store) => {
    const facts = new InMemoryPolicyFacts();
    const reads = {
      subjectPermissions: () => facts.permissionsOfSubject('t1', 'a'),
      abacRules: () => facts.abacRules('t1'),
      relations: () => facts.relations('t1', 'a', 'case', 'c'),
      features: () => facts.featureEnabled('t1', 'chat'),
    };
    facts.failStore(store);
    for (const name of POLICY_STORE_NAMES) {
      if (name === store) await expect(reads[name]()).rejects.toBeInstanceOf(PolicyStoreUnavailableError);
      else await reads[name](); // must not reject
    }
    facts.restoreStore(store);
    await reads[store](); // must not reject
    expect(facts.readCount(store)).toBe(2);
  });

  it('rejects an unknown change', () => {
    expect(() => new InMemoryPolicyFacts().apply({ op: 'dropTables' } as never)).toThrow(/Unknown policy facts change/);
  });
});

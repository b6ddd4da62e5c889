import { AuthorizationAction, DataScope } from '@lp/contracts';
import { DataScopeInput, DataScopeResolver, resolveDataScope, resolveDataScopeWithTrace } from './data-scope.resolver';
import { application, delegated, manualClock, minutesFrom, NOW, request, TENANT, user } from '../../test/decision.fixtures';
import { ScopeEvidence } from './evaluator';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { DataScopeSetting } from './policy-facts';

const role = (setting: DataScopeSetting, officeIds: string[] = [], roleName = `${setting}-role`): ScopeEvidence => ({
  source: 'role',
  roleName,
  setting,
  officeIds,
});
const relation = (resourceId = 'c1'): ScopeEvidence => ({ source: 'relation', relation: 'member', resourceType: 'case', resourceId });

function input(evidence: ScopeEvidence[], extra: Partial<DataScopeInput> = {}): DataScopeInput {
  return { caller: user('alice'), resource: { module: 'cases', resourceType: 'case', resourceId: 'c1' }, permitted: true, evidence, ...extra };
}

describe('resolveDataScope', () => {
  it('is none, with the tenant, when not permitted, whatever the evidence', () => {
    expect(resolveDataScope(input([role('tenant')], { permitted: false }))).toEqual({ kind: 'none', tenantId: TENANT });
  });

  it.each<[string, ScopeEvidence[], DataScope]>([
    ['tenant', [role('tenant')], { kind: 'tenant', tenantId: TENANT }],
    ['office', [role('office', ['o2', 'o1'])], { kind: 'office', tenantId: TENANT, officeIds: ['o1', 'o2'] }],
    ['own', [role('own')], { kind: 'own', tenantId: TENANT, subject: 'alice' }],
    ['none', [role('none')], { kind: 'none', tenantId: TENANT }],
    ['a relation', [relation()], { kind: 'instances', tenantId: TENANT, resourceType: 'case', resourceIds: ['c1'] }],
  ])('maps a single %s source', (_, evidence, expected) => {
    expect(resolveDataScope(input(evidence))).toEqual(expected);
  });

  it('lets the widest win: tenant > office > own > instances > none, in any order of evidence', () => {
    const all = [role('none'), relation(), role('own'), role('office', ['o1']), role('tenant')];
    expect(resolveDataScope(input(all)).kind).toBe('tenant');
    expect(resolveDataScope(input([...all].reverse().slice(1))).kind).toBe('office');
    expect(resolveDataScope(input([role('none'), role('own'), relation()])).kind).toBe('own');
    expect(resolveDataScope(input([role('none'), relation()])).kind).toBe('instances');
  });

  it('unions the offices of several office roles', () => {
    expect(resolveDataScope(input([role('office', ['o3']), role('office', ['o1', 'o3'])]))).toEqual({
      kind: 'office',
      tenantId: TENANT,
      officeIds: ['o1', 'o3'],
    });
  });

  it('treats an office setting of a subject without offices as reaching no rows, so a narrower source still counts', () => {
    expect(resolveDataScope(input([role('office', [])]))).toEqual({ kind: 'none', tenantId: TENANT });
    expect(resolveDataScope(input([role('office', []), role('own')])).kind).toBe('own');
  });

  it('reads an unknown stored setting as none (fail-closed)', () => {
    expect(resolveDataScope(input([role('everything' as DataScopeSetting)]))).toEqual({ kind: 'none', tenantId: TENANT });
  });

  describe('documented default when the permit carries no scope information', () => {
    it.each([
      ['user', user('alice'), { kind: 'own', tenantId: TENANT, subject: 'alice' }],
      ['delegated', delegated('alice', 'bob'), { kind: 'own', tenantId: TENANT, subject: 'alice' }],
      ['application', application('billing-sync'), { kind: 'tenant', tenantId: TENANT }],
    ])('%s caller', (_, caller, expected) => {
      expect(resolveDataScopeWithTrace(input([], { caller }))).toEqual({ dataScope: expected, rule: 'default', candidates: [] });
    });

    it('applies to a temporary grant without a setting', () => {
      expect(resolveDataScope(input([{ source: 'temporary-grant', grantId: 'g', officeIds: [] }]))).toEqual({
        kind: 'own',
        tenantId: TENANT,
        subject: 'alice',
      });
    });
  });

  describe('a relation on the requested instance against a scope that excludes it', () => {
    it('prefers the instance when the own scope provably excludes it (owner is someone else)', () => {
      const resolution = resolveDataScopeWithTrace(
        input([role('own'), relation()], { resource: { module: 'cases', resourceType: 'case', resourceId: 'c1', owner: 'bob' } }),
      );
      expect(resolution.dataScope).toEqual({ kind: 'instances', tenantId: TENANT, resourceType: 'case', resourceIds: ['c1'] });
      expect(resolution.rule).toBe('instance-over-excluding-scope');
    });

    it('prefers the instance when the office scope provably excludes it', () => {
      const resource = { module: 'cases', resourceType: 'case', resourceId: 'c1', officeId: 'o9' };
      expect(resolveDataScope(input([role('office', ['o1']), relation()], { resource })).kind).toBe('instances');
      expect(resolveDataScope(input([role('office', ['o9']), relation()], { resource })).kind).toBe('office');
    });

    it('keeps the wider scope when the facts do not show an exclusion', () => {
      expect(resolveDataScope(input([role('own'), relation()])).kind).toBe('own');
      const own = { module: 'cases', resourceType: 'case', resourceId: 'c1', owner: 'alice' };
      expect(resolveDataScope(input([role('own'), relation()], { resource: own })).kind).toBe('own');
    });
  });

  it('always carries the caller tenant', () => {
    const caller = user('alice', { tenantId: 'acme' });
    for (const evidence of [[], [role('tenant')], [role('office', ['o1'])], [role('own')], [relation()], [role('none')]]) {
      expect(resolveDataScope(input(evidence, { caller })).tenantId).toBe('acme');
    }
  });
});

describe('DataScopeResolver (decision-cache hits)', () => {
  const view = request(user('alice'), AuthorizationAction.View, { resourceId: 'c1' });

  it('recomputes from current facts: a changed role setting shows without re-evaluating policy', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.defineRole(TENANT, 'worker', 'own', ['cases.case.view']);
    facts.bindRole(TENANT, 'alice', 'worker');
    const resolver = new DataScopeResolver(facts, () => NOW);
    expect(await resolver.resolve(view, true)).toEqual({ kind: 'own', tenantId: TENANT, subject: 'alice' });

    facts.defineRole(TENANT, 'worker', 'tenant', ['cases.case.view']);
    expect(await resolver.resolve(view, true)).toEqual({ kind: 'tenant', tenantId: TENANT });
    expect(facts.readCount('abacRules')).toBe(0);
    expect(facts.readCount('features')).toBe(0);
  });

  it('picks up relations and drops expired grants by its clock', async () => {
    const facts = new InMemoryPolicyFacts();
    const clock = manualClock();
    facts.grantTemporary(TENANT, 'alice', { grantId: 'g', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 10), dataScope: 'tenant' });
    facts.addRelation(TENANT, { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'viewer' });
    const resolver = new DataScopeResolver(facts, clock);
    expect((await resolver.resolve(view, true)).kind).toBe('tenant');
    clock.advance(10 * 60_000);
    expect(await resolver.resolve(view, true)).toEqual({ kind: 'instances', tenantId: TENANT, resourceType: 'case', resourceIds: ['c1'] });
  });

  it('reads nothing for a decision that was not permitted', async () => {
    const facts = new InMemoryPolicyFacts();
    expect(await new DataScopeResolver(facts).resolve(view, false)).toEqual({ kind: 'none', tenantId: TENANT });
    expect(facts.readCount('subjectPermissions') + facts.readCount('relations')).toBe(0);
  });

  it('rejects when a scope store fails, so the caller fails closed', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.failStore('relations');
    await expect(new DataScopeResolver(facts).resolve(view, true)).rejects.toThrow(/relations store is unavailable/);
  });
});

import { AuthorizationAction, PLATFORM_FEATURES } from '@lp/contracts';
import { application, delegated, NOW, request, TENANT, user } from '../../test/decision.fixtures';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { AbacVerdict } from './abac-rule';
import { DecisionEngine, DecisionFailure } from './decision-engine';
import { MergedDecision } from './decision-merge';
import { PolicyFactsReader } from './policy-facts';
import { applyTenantStanding } from './tenant-standing';

const VIEW_CASE = { module: 'cases', resourceType: 'case', resourceId: 'c1' };

/** A tenant where alice may do everything four different ways (role, temporary grant, ABAC Allow, owner relation) and bob acts for her. */
function permissive(): InMemoryPolicyFacts {
  const f = new InMemoryPolicyFacts();
  for (const feature of PLATFORM_FEATURES) f.setFeatureDefault(feature.code, true);
  f.defineRole(TENANT, 'admin', 'tenant', ['cases.case.view']);
  f.bindRole(TENANT, 'alice', 'admin');
  f.grantTemporary(TENANT, 'alice', { grantId: 'g1', permissions: ['cases.case.view'], expiresAt: new Date(NOW.getTime() + 3_600_000) });
  f.delegate(TENANT, 'alice', { grantId: 'd1', actor: 'bob', permissions: ['cases.case.view'], expiresAt: new Date(NOW.getTime() + 3_600_000) });
  f.putAbacRule(TENANT, { id: 'r1', name: 'allow all', priority: 1, verdict: AbacVerdict.Allow, conditions: [] });
  f.addRelation(TENANT, { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'owner' });
  return f;
}

const engineOf = (facts: PolicyFactsReader) => new DecisionEngine({ facts, clock: () => NOW });

describe('the tenant rule: a suspended tenant is denied every decision', () => {
  it('denies a user, a delegated caller and an application of a suspended tenant, whatever every evaluator allows', async () => {
    const f = permissive();
    const engine = engineOf(f);
    const callers = [user('alice'), delegated('alice', 'bob'), application('sync', ['cases.case.view'])];
    for (const caller of callers) expect((await engine.decide(request(caller, AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Permit');

    f.setTenantSuspended(TENANT, true);
    for (const caller of callers) {
      const result = await engine.decide(request(caller, AuthorizationAction.View, VIEW_CASE));
      expect(result).toMatchObject({
        outcome: 'Deny',
        permitted: false,
        reason: `TenantSuspended: tenant ${TENANT} is suspended`,
        dataScope: { kind: 'none' },
      });
      expect(result.failure).toBeUndefined();
      // Every evaluator still ran and is audited as it answered (spec §1 merge rule 1).
      expect(result.evaluations.map((e) => e.evaluator)).toEqual(['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature']);
    }
  });

  it('is lifted on the very next decision after reactivation', async () => {
    const f = permissive();
    const engine = engineOf(f);
    f.setTenantSuspended(TENANT, true);
    expect((await engine.decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Deny');
    f.setTenantSuspended(TENANT, false);
    expect((await engine.decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Permit');
  });

  it('concerns only the suspended tenant', async () => {
    const f = permissive();
    f.defineRole('other', 'admin', 'tenant', ['cases.case.view']);
    f.bindRole('other', 'alice', 'admin');
    f.setTenantSuspended('other', true);
    expect((await engineOf(f).decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Permit');
    expect((await engineOf(f).decide(request(user('alice', { tenantId: 'other' }), AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Deny');
  });

  it('fails closed when the status cannot be read: Deny, TenantStatusUnavailable, PolicyStoreUnavailable', async () => {
    const f = permissive();
    f.failTenantStatus();
    const result = await engineOf(f).decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE));
    expect(result).toMatchObject({ outcome: 'Deny', permitted: false, failure: DecisionFailure.PolicyStoreUnavailable });
    expect(result.reason).toMatch(/^TenantStatusUnavailable: /);
    f.restoreTenantStatus();
    expect((await engineOf(f).decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Permit');
  });

  it('reads the status once per decision, and explain traces the rule', async () => {
    const f = permissive();
    f.setTenantSuspended(TENANT, true);
    const engine = engineOf(f);
    await engine.decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE));
    expect(f.tenantStatusReads).toBe(1);
    const explained = await engine.explain(request(user('alice'), AuthorizationAction.View, VIEW_CASE));
    expect(explained.merge).toMatchObject({ outcome: 'Deny', rule: 'TenantSuspended', denialReasons: [`tenant ${TENANT} is suspended`] });
  });

  it('a reader without the fact (a facts overlay) is read as never suspended', async () => {
    const f = permissive();
    f.setTenantSuspended(TENANT, true);
    const withoutStatus: PolicyFactsReader = {
      permissionsOfSubject: (t, s) => f.permissionsOfSubject(t, s),
      abacRules: (t) => f.abacRules(t),
      relations: (t, s, rt, ri) => f.relations(t, s, rt, ri),
      featureEnabled: (t, c) => f.featureEnabled(t, c),
    };
    expect((await engineOf(withoutStatus).decide(request(user('alice'), AuthorizationAction.View, VIEW_CASE))).outcome).toBe('Permit');
  });

  describe('applyTenantStanding (pure)', () => {
    const merges: MergedDecision[] = [
      { outcome: 'Permit', permitted: true, rule: 'AnyAllow', denialReasons: [], obligations: ['mask'] },
      { outcome: 'Deny', permitted: false, rule: 'AnyDeny', denialReasons: ['ABAC: no'], obligations: [] },
      { outcome: 'NoMatchingPolicy', permitted: false, rule: 'AllNeutral', denialReasons: [], obligations: [] },
    ];
    it.each(merges.map((m) => [m.rule, m]))('leaves %s unchanged for an active tenant', (_rule, merge) => {
      expect(applyTenantStanding(merge, 't', { suspended: false })).toBe(merge);
    });
    it.each(merges.map((m) => [m.rule, m]))('turns %s into a TenantSuspended Deny without obligations', (_rule, merge) => {
      expect(applyTenantStanding(merge, 't', { suspended: true })).toEqual({
        outcome: 'Deny',
        permitted: false,
        rule: 'TenantSuspended',
        denialReasons: ['tenant t is suspended'],
        obligations: [],
      });
    });
    it.each(merges.map((m) => [m.rule, m]))('turns %s into a TenantStatusUnavailable Deny when the status is unreadable', (_rule, merge) => {
      expect(applyTenantStanding(merge, 't', { unavailable: 'boom' })).toMatchObject({ outcome: 'Deny', permitted: false, rule: 'TenantStatusUnavailable' });
    });
  });
});

import { AuthorizationAction, EvaluatorName, EvaluatorVerdict, ValidationError } from '@lp/contracts';
import { AbacVerdict } from './abac-rule';
import { AppScopeEvaluator } from './app-scope.evaluator';
import { DecisionEngine, DecisionFailure } from './decision-engine';
import { InvalidDecisionRequestError, validateDecisionRequest } from '@lp/contracts';
import { application, delegated, manualClock, minutesFrom, NOW, request, TENANT, user } from '../../test/decision.fixtures';
import { DecisionEvaluator, EvaluationContext, EvaluatorOutcome } from './evaluator';
import { FeatureEvaluator } from './feature.evaluator';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { POLICY_STORE_NAMES } from './policy-facts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function facts(): InMemoryPolicyFacts {
  const f = new InMemoryPolicyFacts();
  f.defineRole(TENANT, 'case-worker', 'office', ['cases.case.view', 'cases.case.update', 'tickets.ticket.view']);
  f.bindRole(TENANT, 'alice', 'case-worker');
  f.setOffices(TENANT, 'alice', ['o1']);
  f.setFeatureDefault('tickets', true);
  return f;
}

/** An evaluator with a fixed answer that records when it ran. */
function fixed(name: EvaluatorName, verdict: EvaluatorVerdict, log: string[] = [], delayMs = 0): DecisionEvaluator {
  return {
    name,
    async evaluate(): Promise<EvaluatorOutcome> {
      log.push(`start ${name}`);
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      log.push(`end ${name}`);
      return { result: { evaluator: name, verdict, reason: `${name} fixed ${verdict}` }, inputs: {} };
    },
  };
}

describe('DecisionEngine', () => {
  it('permits through RBAC with the evaluations in registration order, a fresh id and the DataScope', async () => {
    const engine = new DecisionEngine({ facts: facts(), clock: () => NOW });
    const result = await engine.decide(request(user('alice'), AuthorizationAction.View, { resourceId: 'c1' }));
    expect(result).toMatchObject({ outcome: 'Permit', permitted: true, cached: false, obligations: [] });
    expect(result.evaluations.map((e) => [e.evaluator, e.verdict])).toEqual([
      ['RBAC', 'Allow'],
      ['AppScope', 'Neutral'],
      ['ABAC', 'Neutral'],
      ['ReBAC', 'Neutral'],
      ['Feature', 'Neutral'],
    ]);
    expect(result.decisionId).toMatch(UUID);
    expect(result.dataScope).toEqual({ kind: 'office', tenantId: TENANT, officeIds: ['o1'] });
    expect(result).not.toHaveProperty('validUntil');
    expect(result).not.toHaveProperty('failure');
    const again = await engine.decide(request(user('alice'), AuthorizationAction.View, { resourceId: 'c1' }));
    expect(again.decisionId).not.toBe(result.decisionId);
  });

  it('answers NoMatchingPolicy with a none scope when every evaluator is Neutral', async () => {
    const result = await new DecisionEngine({ facts: facts(), clock: () => NOW }).decide(request(user('mallory'), AuthorizationAction.Delete));
    expect(result).toMatchObject({ outcome: 'NoMatchingPolicy', permitted: false, dataScope: { kind: 'none', tenantId: TENANT } });
  });

  describe('merge rule 1: every evaluator runs', () => {
    it('runs the evaluators after a Deny and reports each result', async () => {
      const log: string[] = [];
      const engine = new DecisionEngine({
        facts: facts(),
        evaluators: [fixed('Feature', 'Deny', log), fixed('RBAC', 'Allow', log, 5), fixed('ABAC', 'Neutral', log, 10)],
      });
      const result = await engine.decide(request(user('alice'), AuthorizationAction.View));
      expect(result.outcome).toBe('Deny');
      expect(result.evaluations.map((e) => e.evaluator)).toEqual(['Feature', 'RBAC', 'ABAC']);
      expect(log.filter((l) => l.startsWith('end'))).toHaveLength(3);
    });

    it('runs them concurrently: all start before the first one finishes', async () => {
      const log: string[] = [];
      const engine = new DecisionEngine({
        facts: facts(),
        evaluators: [fixed('RBAC', 'Allow', log, 20), fixed('ABAC', 'Neutral', log, 20), fixed('Feature', 'Neutral', log, 20)],
      });
      await engine.decide(request(user('alice'), AuthorizationAction.View));
      expect(log.slice(0, 3)).toEqual(['start RBAC', 'start ABAC', 'start Feature']);
    });

    it('samples the clock once, so every evaluator judges the same instant', async () => {
      const clock = jest.fn(() => NOW);
      const seen: Date[] = [];
      const probe = (name: EvaluatorName): DecisionEvaluator => ({
        name,
        evaluate: async (context: EvaluationContext) => {
          seen.push(context.now);
          return { result: { evaluator: name, verdict: 'Neutral', reason: 'probe' }, inputs: {} };
        },
      });
      await new DecisionEngine({ facts: facts(), clock, evaluators: [probe('RBAC'), probe('ABAC')] }).decide(request(user('alice'), AuthorizationAction.View));
      expect(clock).toHaveBeenCalledTimes(1);
      expect(seen).toEqual([NOW, NOW]);
    });
  });

  describe('input validation', () => {
    const valid = request(user('alice'), AuthorizationAction.View);

    it.each<[string, unknown, string]>([
      ['an unknown action', { ...valid, action: 'Launch' }, 'action'],
      ['a lower-case action', { ...valid, action: 'view' }, 'action'],
      ['a missing module', { ...valid, resource: { resourceType: 'case' } }, 'resource.module'],
      ['an empty module', { ...valid, resource: { module: '  ', resourceType: 'case' } }, 'resource.module'],
      ['a module that is not a code segment', { ...valid, resource: { module: 'ca.ses', resourceType: 'case' } }, 'resource.module'],
      ['a missing resource type', { ...valid, resource: { module: 'cases' } }, 'resource.resourceType'],
      ['a missing resource', { ...valid, resource: undefined }, 'resource'],
      ['a non-numeric amount', { ...valid, resource: { ...valid.resource, amount: '10' } }, 'resource.amount'],
      ['a missing caller', { ...valid, caller: undefined }, 'caller'],
      ['an unknown caller kind', { ...valid, caller: { ...valid.caller, kind: 'robot' } }, 'caller.kind'],
      ['a caller without tenant', { ...valid, caller: { ...valid.caller, tenantId: '' } }, 'caller.tenantId'],
      ['a delegated caller without actor', { ...valid, caller: { ...delegated(), actor: undefined } }, 'caller.actor'],
      ['scopes that are not a list', { ...valid, caller: { ...valid.caller, scopes: 'a b' } }, 'caller.scopes'],
    ])('the check where requests enter throws InvalidDecisionRequestError for %s, so no store is read', (_, bad, field) => {
      let error: unknown;
      try {
        validateDecisionRequest(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidDecisionRequestError);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as InvalidDecisionRequestError).errors).toHaveProperty([field]);
    });

    it('lists every problem at once', () => {
      expect(() => validateDecisionRequest({ caller: undefined, resource: {}, action: 'x' })).toThrow(
        expect.objectContaining({
          errors: { action: expect.any(Array), caller: expect.any(Array), 'resource.module': expect.any(Array), 'resource.resourceType': expect.any(Array) },
        }),
      );
    });

    it('throws for a request that is not an object', () => {
      expect(() => validateDecisionRequest(null)).toThrow(InvalidDecisionRequestError);
    });

    it('lower-cases module and resource type, as permission codes are', async () => {
      const explanation = await new DecisionEngine({ facts: facts(), clock: () => NOW }).explain(
        request(user('alice'), AuthorizationAction.View, { module: 'Tickets', resourceType: 'Ticket' }),
      );
      expect(explanation.permissionCode).toBe('tickets.ticket.view');
      expect(explanation.decision.evaluations.find((e) => e.evaluator === 'Feature')).toMatchObject({
        verdict: 'Neutral',
        reason: 'FeatureEnabled: feature tickets enabled',
      });
      expect(explanation.decision.outcome).toBe('Permit');
    });
  });

  describe('validUntil', () => {
    it('is the expiry of the temporary grant that permitted', async () => {
      const f = facts();
      f.grantTemporary(TENANT, 'bob', { grantId: 'g1', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 15) });
      const result = await new DecisionEngine({ facts: f, clock: () => NOW }).decide(request(user('bob'), AuthorizationAction.View));
      expect(result.validUntil).toBe(minutesFrom(NOW, 15).toISOString());
    });

    it('is the earliest of the delegated grant and the grant under it', async () => {
      const f = facts();
      f.grantTemporary(TENANT, 'bob', { grantId: 'g1', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 15) });
      f.delegate(TENANT, 'bob', { grantId: 'd1', actor: 'carol', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 5) });
      const result = await new DecisionEngine({ facts: f, clock: () => NOW }).decide(request(delegated('bob', 'carol'), AuthorizationAction.View));
      expect(result).toMatchObject({ outcome: 'Permit', validUntil: minutesFrom(NOW, 5).toISOString() });
    });

    it('turns into a NoMatchingPolicy once the clock passes the grant expiry', async () => {
      const f = facts();
      const clock = manualClock();
      f.delegate(TENANT, 'alice', { grantId: 'd1', actor: 'carol', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 5) });
      const engine = new DecisionEngine({ facts: f, clock });
      const req = request(delegated('alice', 'carol'), AuthorizationAction.View);
      expect((await engine.decide(req)).outcome).toBe('Permit');
      clock.advance(5 * 60_000);
      expect(await engine.decide(req)).toMatchObject({ outcome: 'NoMatchingPolicy', permitted: false });
    });
  });

  describe('failures', () => {
    it.each(POLICY_STORE_NAMES.map((s) => [s]))('a %s store failure denies and is reported as PolicyStoreUnavailable', async (store) => {
      const f = facts();
      f.defineRole(TENANT, 'admin', 'tenant', ['tickets.case.view']);
      f.bindRole(TENANT, 'alice', 'admin');
      f.addRelation(TENANT, { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'owner' });
      f.failStore(store);
      const result = await new DecisionEngine({ facts: f, clock: () => NOW }).decide(
        request(user('alice'), AuthorizationAction.View, { module: 'tickets', resourceType: 'case', resourceId: 'c1' }),
      );
      expect(result).toMatchObject({ outcome: 'Deny', permitted: false, failure: DecisionFailure.PolicyStoreUnavailable, dataScope: { kind: 'none' } });
    });

    it('counts an evaluator that throws as a Deny and still reports the others', async () => {
      const broken: DecisionEvaluator = {
        name: 'ABAC',
        evaluate: () => {
          throw new TypeError('rules is not iterable');
        },
      };
      const engine = new DecisionEngine({ facts: facts(), evaluators: [fixed('RBAC', 'Allow'), broken, fixed('Feature', 'Allow')] });
      const explanation = await engine.explain(request(user('alice'), AuthorizationAction.View));
      expect(explanation.decision).toMatchObject({ outcome: 'Deny', permitted: false, failure: DecisionFailure.EvaluatorFailed });
      expect(explanation.decision.evaluations).toEqual([
        { evaluator: 'RBAC', verdict: 'Allow', reason: 'RBAC fixed Allow' },
        { evaluator: 'ABAC', verdict: 'Deny', reason: 'evaluator failed (fail-closed)' },
        { evaluator: 'Feature', verdict: 'Allow', reason: 'Feature fixed Allow' },
      ]);
      expect(explanation.evaluators[1]!.error).toBe('TypeError: rules is not iterable');
    });

    it('does not let an evaluator report under another name', async () => {
      const impostor: DecisionEvaluator = {
        name: 'Feature',
        evaluate: async () => ({ result: { evaluator: 'RBAC', verdict: 'Neutral', reason: 'x' }, inputs: {} }),
      };
      const result = await new DecisionEngine({ facts: facts(), evaluators: [impostor] }).decide(request(user('alice'), AuthorizationAction.View));
      expect(result.evaluations[0]!.evaluator).toBe('Feature');
    });

    it('refuses to register two evaluators under one name', () => {
      expect(() => new DecisionEngine({ facts: facts(), evaluators: [fixed('RBAC', 'Allow'), fixed('RBAC', 'Neutral')] })).toThrow(/RBAC is registered twice/);
    });
  });

  it('collects the obligations of an ABAC Allow', async () => {
    const f = facts();
    f.putAbacRule(TENANT, { id: 'r1', priority: 1, verdict: AbacVerdict.Allow, conditions: [], obligations: ['watermark'] });
    const result = await new DecisionEngine({ facts: f }).decide(request(user('alice'), AuthorizationAction.View));
    expect(result).toMatchObject({ outcome: 'Permit', obligations: ['watermark'] });
  });

  it('permits an Application caller by scope with the tenant-wide default scope', async () => {
    const result = await new DecisionEngine({ facts: facts() }).decide(request(application('billing-sync', ['cases.case.view']), AuthorizationAction.View));
    expect(result).toMatchObject({ outcome: 'Permit', dataScope: { kind: 'tenant', tenantId: TENANT } });
  });

  it('an enabled feature is a gate: it permits nothing alone, and still shows in the evaluations', async () => {
    const result = await new DecisionEngine({ facts: facts() }).decide(
      request(user('mallory'), AuthorizationAction.Delete, { module: 'tickets', resourceType: 'ticket' }),
    );
    expect(result).toMatchObject({ outcome: 'NoMatchingPolicy', permitted: false, dataScope: { kind: 'none' } });
    expect(result.evaluations.find((e) => e.evaluator === 'Feature')).toEqual({
      evaluator: 'Feature',
      verdict: 'Neutral',
      reason: 'FeatureEnabled: feature tickets enabled',
    });
  });

  it('spec-literal merge rule 3 (AUTHZ_FEATURE_ENABLED_VERDICT=allow): an enabled feature alone permits a caller without any grant', async () => {
    const engine = new DecisionEngine({ facts: facts(), featureEnabledVerdict: 'allow' });
    const result = await engine.decide(request(user('mallory'), AuthorizationAction.Delete, { module: 'tickets', resourceType: 'ticket' }));
    expect(result).toMatchObject({ outcome: 'Permit', dataScope: { kind: 'own', subject: 'mallory' } });
  });

  describe('delegated callers never exceed their grant', () => {
    const inFlight = () => {
      const f = facts();
      f.grantTemporary(TENANT, 'bob', { grantId: 'g1', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 60) });
      f.delegate(TENANT, 'bob', { grantId: 'd1', actor: 'carol', permissions: ['cases.case.view'], expiresAt: minutesFrom(NOW, 5) });
      return f;
    };

    it('a grant that expires while the evaluators run does not permit', async () => {
      const f = inFlight();
      let now = NOW;
      // The subject's permissions arrive after the delegated grant's expiry: a slow store read.
      const slow = Object.create(f) as typeof f;
      slow.permissionsOfSubject = async (tenantId: string, subject: string) => {
        const permissions = await f.permissionsOfSubject(tenantId, subject);
        now = minutesFrom(NOW, 6);
        return permissions;
      };
      const result = await new DecisionEngine({ facts: slow, clock: () => now }).explain(request(delegated('bob', 'carol'), AuthorizationAction.View));
      expect(result.evaluators.find((e) => e.evaluator === 'RBAC')?.verdict).toBe('Allow');
      expect(result.decision).toMatchObject({ outcome: 'Deny', permitted: false, dataScope: { kind: 'none' } });
      expect(result.decision.reason).toMatch(/^GrantExpiredInFlight: a grant behind the Allow expired at .*Z, before the decision completed$/);
      expect(result.merge.rule).toBe('GrantExpiredInFlight');
    });

    it('the same grant still valid when the evaluators finish permits', async () => {
      const result = await new DecisionEngine({ facts: inFlight(), clock: () => minutesFrom(NOW, 4) }).decide(
        request(delegated('bob', 'carol'), AuthorizationAction.View),
      );
      expect(result).toMatchObject({ outcome: 'Permit', validUntil: minutesFrom(NOW, 5).toISOString() });
      expect(result.reason).toBeUndefined();
    });

    it('without RBAC registered, no other evaluator can permit a delegated caller', async () => {
      const f = facts();
      const engine = new DecisionEngine({ facts: f, evaluators: [new AppScopeEvaluator(), new FeatureEvaluator(f, 'allow')] });
      const result = await engine.decide(request(delegated('bob', 'carol'), AuthorizationAction.View, { module: 'tickets', resourceType: 'ticket' }));
      expect(result).toMatchObject({ outcome: 'Deny', permitted: false });
      expect(result.reason).toContain('DelegationNotCovered');
      expect(result.reason).toContain('RBAC is not registered');
    });
  });

  describe('explain', () => {
    it('returns every evaluator inputs and verdict, the merge and the DataScope resolution', async () => {
      const f = facts();
      f.addRelation(TENANT, { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'viewer' });
      const explanation = await new DecisionEngine({ facts: f, clock: () => NOW, newDecisionId: () => 'd-1' }).explain(
        request(user('alice'), AuthorizationAction.View, { resourceId: 'c1', owner: 'bob' }),
      );
      expect(explanation).toMatchObject({
        decision: { decisionId: 'd-1', outcome: 'Permit' },
        permissionCode: 'cases.case.view',
        evaluatedAt: NOW.toISOString(),
        merge: { rule: 'AnyAllow', denialReasons: [] },
        dataScope: { rule: 'widest', dataScope: { kind: 'office', officeIds: ['o1'] } },
      });
      const [rbac, appScope, abac, rebac, feature] = explanation.evaluators;
      expect(rbac).toMatchObject({
        evaluator: 'RBAC',
        verdict: 'Allow',
        inputs: { subject: 'alice', permissionCode: 'cases.case.view', roles: [{ roleName: 'case-worker', dataScope: 'office', holdsCode: true }] },
      });
      expect(appScope).toMatchObject({ verdict: 'Neutral', inputs: { callerKind: 'user' } });
      expect(abac).toMatchObject({ verdict: 'Neutral', inputs: { rules: [] } });
      expect(rebac).toMatchObject({ verdict: 'Allow', inputs: { resourceId: 'c1', relations: ['viewer'] } });
      expect(feature).toMatchObject({ verdict: 'Neutral', inputs: { module: 'cases' } });
      expect(explanation.dataScope.candidates.map((c) => c.kind)).toEqual(['office', 'instances']);
    });
  });

  it('resolveDataScope recomputes the same scope a fresh decision carries', async () => {
    const f = facts();
    f.addRelation(TENANT, { subject: 'alice', resourceType: 'case', resourceId: 'c1', relation: 'member' });
    const engine = new DecisionEngine({ facts: f, clock: () => NOW });
    const req = request(user('alice'), AuthorizationAction.Update, { resourceId: 'c1', officeId: 'o7' });
    const decided = await engine.decide(req);
    expect(decided.dataScope).toEqual({ kind: 'instances', tenantId: TENANT, resourceType: 'case', resourceIds: ['c1'] });
    await expect(engine.resolveDataScope(req, decided.permitted)).resolves.toEqual(decided.dataScope);
  });
});

import { AUTHORIZATION_ACTIONS, AuthorizationAction } from '@lp/contracts';
import { application, contextOf, delegated, request, TENANT, user } from '../../test/decision.fixtures';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { PolicyFactsReader, RelationName, ResourceRelation } from './policy-facts';
import { REBAC_ALLOWED_ACTIONS, RebacEvaluator } from './rebac.evaluator';

function withRelation(relation: RelationName | string, resourceType = 'case', resourceId = 'c1', subject = 'alice') {
  const facts = new InMemoryPolicyFacts();
  facts.addRelation(TENANT, { subject, resourceType, resourceId, relation: relation as RelationName });
  return { facts, rebac: new RebacEvaluator(facts) };
}

const onCase = (action: AuthorizationAction, caller = user('alice'), resourceId = 'c1') =>
  contextOf(request(caller, action, { module: 'cases', resourceType: 'case', resourceId }));

describe('RebacEvaluator', () => {
  describe('allow-list per relation', () => {
    const expected: Record<RelationName, AuthorizationAction[]> = {
      owner: [...AUTHORIZATION_ACTIONS],
      member: [AuthorizationAction.View, AuthorizationAction.Update],
      viewer: [AuthorizationAction.View],
    };

    it('is the documented one', () => {
      expect(REBAC_ALLOWED_ACTIONS).toEqual(expected);
    });

    for (const relation of Object.keys(expected) as RelationName[]) {
      it.each(AUTHORIZATION_ACTIONS.map((a) => [a]))(`${relation} → %s`, async (action) => {
        const { rebac } = withRelation(relation);
        const outcome = await rebac.evaluate(onCase(action));
        if (expected[relation].includes(action)) {
          expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Allow', reason: `relation ${relation} on case c1 allows ${action}` });
          expect(outcome.scope).toEqual([{ source: 'relation', relation, resourceType: 'case', resourceId: 'c1' }]);
        } else {
          expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Neutral', reason: `relation ${relation} on case c1 does not allow ${action}` });
          expect(outcome.scope).toBeUndefined();
        }
      });
    }
  });

  it.each(['case', 'client', 'billing'])('supports %s instances', async (resourceType) => {
    const { rebac } = withRelation('viewer', resourceType, 'x1');
    const outcome = await rebac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View, { module: 'm', resourceType, resourceId: 'x1' })));
    expect(outcome.result.verdict).toBe('Allow');
  });

  it('is Neutral for an unsupported resource type, without reading relations', async () => {
    const { facts, rebac } = withRelation('owner', 'invoice', 'i1');
    const outcome = await rebac.evaluate(
      contextOf(request(user('alice'), AuthorizationAction.View, { module: 'billing', resourceType: 'invoice', resourceId: 'i1' })),
    );
    expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Neutral', reason: 'resource type invoice has no relations' });
    expect(facts.readCount('relations')).toBe(0);
  });

  it('is Neutral without an instance (no resourceId)', async () => {
    const { facts, rebac } = withRelation('owner');
    const outcome = await rebac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View, { module: 'cases', resourceType: 'case' })));
    expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Neutral', reason: 'no case instance in the request' });
    expect(facts.readCount('relations')).toBe(0);
  });

  it('is Neutral without a relation to the instance (a relation to another instance or of another subject does not count)', async () => {
    const { facts, rebac } = withRelation('owner', 'case', 'c2');
    facts.addRelation(TENANT, { subject: 'bob', resourceType: 'case', resourceId: 'c1', relation: 'owner' });
    const outcome = await rebac.evaluate(onCase(AuthorizationAction.View));
    expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Neutral', reason: 'no relation to case c1' });
  });

  it('is Neutral without a subject: an Application caller', async () => {
    const { facts, rebac } = withRelation('owner', 'case', 'c1', 'billing-sync');
    const outcome = await rebac.evaluate(onCase(AuthorizationAction.View, application('billing-sync')));
    expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Neutral', reason: 'no user subject (Application caller)' });
    expect(facts.readCount('relations')).toBe(0);
  });

  it('judges a delegated caller by the subject it acts for, not the actor', async () => {
    const { facts, rebac } = withRelation('owner');
    facts.addRelation(TENANT, { subject: 'bob', resourceType: 'case', resourceId: 'c9', relation: 'owner' });
    expect((await rebac.evaluate(onCase(AuthorizationAction.Update, delegated('alice', 'bob')))).result.verdict).toBe('Allow');
    expect((await rebac.evaluate(onCase(AuthorizationAction.Update, delegated('alice', 'bob'), 'c9'))).result.verdict).toBe('Neutral');
  });

  it('lets an unknown stored relation allow nothing', async () => {
    const { rebac } = withRelation('admin');
    const outcome = await rebac.evaluate(onCase(AuthorizationAction.View));
    expect(outcome.result).toMatchObject({ verdict: 'Neutral', reason: 'relation admin on case c1 does not allow View' });
  });

  it('ignores relations a sloppy adapter returns for another instance', async () => {
    const sloppy: PolicyFactsReader = {
      permissionsOfSubject: jest.fn(),
      abacRules: jest.fn(),
      featureEnabled: jest.fn(),
      relations: async (): Promise<ResourceRelation[]> => [{ subject: 'alice', resourceType: 'case', resourceId: 'c2', relation: 'owner' }],
    };
    const outcome = await new RebacEvaluator(sloppy).evaluate(onCase(AuthorizationAction.View));
    expect(outcome.result.verdict).toBe('Neutral');
  });

  it('fails closed with a Deny when the relation store fails', async () => {
    const { facts, rebac } = withRelation('owner');
    facts.failStore('relations');
    const outcome = await rebac.evaluate(onCase(AuthorizationAction.View));
    expect(outcome.result).toEqual({ evaluator: 'ReBAC', verdict: 'Deny', reason: 'relation store unavailable (fail-closed)' });
    expect(outcome.storeFailure).toBe('relations');
  });
});

import { AuthorizationAction } from '@lp/contracts';
import { application, contextOf, request, TENANT, user } from '../../test/decision.fixtures';
import { FEATURE_BY_MODULE, FeatureEvaluator } from './feature.evaluator';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';

function forModule(module: string, caller = user('alice')) {
  return contextOf(request(caller, AuthorizationAction.View, { module, resourceType: 'item' }));
}

describe('FeatureEvaluator', () => {
  it('maps exactly the documented modules', () => {
    expect(FEATURE_BY_MODULE).toEqual({ tickets: 'tickets', chat: 'chat', workflow: 'workflow', reporting: 'reporting', mcp: 'mcp.access' });
  });

  it.each(Object.entries(FEATURE_BY_MODULE))(
    'module %s: enabled %s → Neutral FeatureEnabled (a gate, not a grant), disabled → Deny',
    async (module, featureCode) => {
      const facts = new InMemoryPolicyFacts();
      const feature = new FeatureEvaluator(facts);
      facts.setFeatureDefault(featureCode, true);
      expect((await feature.evaluate(forModule(module))).result).toEqual({
        evaluator: 'Feature',
        verdict: 'Neutral',
        reason: `FeatureEnabled: feature ${featureCode} enabled`,
      });
      facts.setFeatureDefault(featureCode, false);
      expect((await feature.evaluate(forModule(module))).result).toEqual({ evaluator: 'Feature', verdict: 'Deny', reason: `feature ${featureCode} disabled` });
    },
  );

  it('answers Allow for an enabled feature under the spec-literal setting, with the same reason', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.setFeatureDefault('tickets', true);
    facts.setFeatureDefault('chat', false);
    const literal = new FeatureEvaluator(facts, 'allow');
    expect((await literal.evaluate(forModule('tickets'))).result).toEqual({
      evaluator: 'Feature',
      verdict: 'Allow',
      reason: 'FeatureEnabled: feature tickets enabled',
    });
    expect((await literal.evaluate(forModule('chat'))).result.verdict).toBe('Deny');
    expect((await literal.evaluate(forModule('cases'))).result.verdict).toBe('Neutral');
  });

  it('applies to Application callers too', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.setFeatureDefault('chat', false);
    expect((await new FeatureEvaluator(facts).evaluate(forModule('chat', application('bot')))).result.verdict).toBe('Deny');
  });

  it('lets a tenant override win over the global default, in both directions, for that tenant only', async () => {
    const facts = new InMemoryPolicyFacts();
    const feature = new FeatureEvaluator(facts);
    facts.setFeatureDefault('tickets', true);
    facts.setFeatureOverride(TENANT, 'tickets', false);
    expect((await feature.evaluate(forModule('tickets'))).result.verdict).toBe('Deny');
    expect((await feature.evaluate(forModule('tickets', user('alice', { tenantId: 't2' })))).result.verdict).toBe('Neutral');

    facts.setFeatureDefault('tickets', false);
    facts.setFeatureOverride(TENANT, 'tickets', true);
    expect((await feature.evaluate(forModule('tickets'))).result.verdict).toBe('Neutral');
    facts.setFeatureOverride(TENANT, 'tickets', undefined);
    expect((await feature.evaluate(forModule('tickets'))).result.verdict).toBe('Deny');
  });

  it('denies a mapped feature that has no definition at all (fail-closed)', async () => {
    const outcome = await new FeatureEvaluator(new InMemoryPolicyFacts()).evaluate(forModule('reporting'));
    expect(outcome.result).toEqual({ evaluator: 'Feature', verdict: 'Deny', reason: 'feature reporting not defined (fail-closed)' });
  });

  it('is Neutral for a module without mapping, without reading the store', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.setFeatureDefault('cases', false);
    const outcome = await new FeatureEvaluator(facts).evaluate(forModule('cases'));
    expect(outcome.result).toEqual({ evaluator: 'Feature', verdict: 'Neutral', reason: 'module cases has no feature mapping' });
    expect(facts.readCount('features')).toBe(0);
  });

  it('does not take a feature code for a module name (mcp.access gates module mcp only)', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.setFeatureDefault('mcp.access', true);
    expect((await new FeatureEvaluator(facts).evaluate(forModule('access'))).result.verdict).toBe('Neutral');
    expect((await new FeatureEvaluator(facts).evaluate(forModule('constructor'))).result.verdict).toBe('Neutral');
  });

  it('fails closed with a Deny when the feature store fails', async () => {
    const facts = new InMemoryPolicyFacts();
    facts.setFeatureDefault('tickets', true);
    facts.failStore('features');
    const outcome = await new FeatureEvaluator(facts).evaluate(forModule('tickets'));
    expect(outcome.result).toEqual({ evaluator: 'Feature', verdict: 'Deny', reason: 'feature store unavailable for tickets (fail-closed)' });
    expect(outcome.storeFailure).toBe('features');
  });
});

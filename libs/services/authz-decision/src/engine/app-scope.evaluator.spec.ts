import { AuthorizationAction } from '@lp/contracts';
import { AppScopeEvaluator } from './app-scope.evaluator';
import { application, contextOf, delegated, request, user } from '../../test/decision.fixtures';

describe('AppScopeEvaluator', () => {
  const appScope = new AppScopeEvaluator();

  it('allows an Application caller whose scopes hold the permission code', async () => {
    const outcome = await appScope.evaluate(contextOf(request(application('billing-sync', ['x.y.view', 'cases.case.view']), AuthorizationAction.View)));
    expect(outcome.result).toEqual({ evaluator: 'AppScope', verdict: 'Allow', reason: 'scope cases.case.view of client billing-sync' });
  });

  it('is Neutral when the scope is absent (another action of the same resource does not count)', async () => {
    const outcome = await appScope.evaluate(contextOf(request(application('billing-sync', ['cases.case.view']), AuthorizationAction.Update)));
    expect(outcome.result).toEqual({ evaluator: 'AppScope', verdict: 'Neutral', reason: 'scope cases.case.update absent' });
  });

  it('compares scopes exactly: no case folding, no prefixes, no wildcards', async () => {
    for (const scopes of [['Cases.Case.View'], ['cases.case'], ['cases.*'], ['*']]) {
      const outcome = await appScope.evaluate(contextOf(request(application('app', scopes), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Neutral');
    }
  });

  it.each([
    ['user', user('alice', { scopes: ['cases.case.view'] })],
    ['delegated', delegated('alice', 'bob', { scopes: ['cases.case.view'] })],
  ])('is Neutral for a %s caller even when its token carries the scope', async (kind, caller) => {
    const outcome = await appScope.evaluate(contextOf(request(caller, AuthorizationAction.View)));
    expect(outcome.result).toEqual({ evaluator: 'AppScope', verdict: 'Neutral', reason: `caller is a ${kind} caller: AppScope not applicable` });
  });
});

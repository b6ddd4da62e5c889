import { DecisionEvaluator, EvaluationContext, EvaluatorOutcome, NO_INPUTS } from './evaluator';

/**
 * Spec §1 AppScope: an Application caller is allowed when its token scopes contain the request's
 * permission code. Scopes are compared exactly (OAuth scopes are case-sensitive and the catalog's
 * codes are lower case); no wildcards, so a scope grants exactly one code. Reads no store.
 */
export class AppScopeEvaluator implements DecisionEvaluator {
  readonly name = 'AppScope' as const;

  async evaluate({ request, permissionCode, skipInputs }: EvaluationContext): Promise<EvaluatorOutcome> {
    const { caller } = request;
    const inputs = skipInputs ? NO_INPUTS : { callerKind: caller.kind, clientId: caller.clientId, permissionCode, scopes: [...caller.scopes] };
    if (caller.kind !== 'application') {
      return { result: { evaluator: this.name, verdict: 'Neutral', reason: `caller is a ${caller.kind} caller: AppScope not applicable` }, inputs };
    }
    if (caller.scopes.includes(permissionCode)) {
      return { result: { evaluator: this.name, verdict: 'Allow', reason: `scope ${permissionCode} of client ${caller.clientId ?? caller.subject}` }, inputs };
    }
    return { result: { evaluator: this.name, verdict: 'Neutral', reason: `scope ${permissionCode} absent` }, inputs };
  }
}

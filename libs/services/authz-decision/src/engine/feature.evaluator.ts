import { FEATURE_BY_MODULE, featureOfModule } from '@lp/contracts';
import { DecisionEvaluator, describeStoreError, EvaluationContext, EvaluatorOutcome } from './evaluator';
import { PolicyFactsReader } from './policy-facts';

// The map lives in contracts (policy-management's menu reads it too); re-exported for the core's users.
export { FEATURE_BY_MODULE, featureOfModule };

/**
 * What an enabled feature answers. `neutral` (the default): a feature is a gate, not a grant; the
 * module is open, and another source must still permit. `allow`: spec §1 read literally, where an
 * enabled feature permits on its own (every signed-in user of the tenant could then do anything in
 * the module); kept only for deployments migrating from the original system.
 */
export type FeatureEnabledVerdict = 'allow' | 'neutral';

export const FEATURE_ENABLED_VERDICTS: readonly FeatureEnabledVerdict[] = ['allow', 'neutral'];

/** Reason of an enabled feature, the same under both settings so audit queries can find it. */
export const FEATURE_ENABLED_REASON = 'FeatureEnabled';

/**
 * Spec §1 Feature: the module's feature (tenant override, else global default) enabled → Neutral
 * with reason `FeatureEnabled` (Allow with `enabledVerdict: 'allow'`); disabled → Deny; a module
 * without mapping → Neutral. A mapped feature with no definition at all is denied too: the map says
 * the module is gated, so a missing definition is a misconfiguration, and fail-closed is the safe
 * reading. A failure of the feature store → Deny.
 */
export class FeatureEvaluator implements DecisionEvaluator {
  readonly name = 'Feature' as const;

  constructor(
    private readonly facts: PolicyFactsReader,
    private readonly enabledVerdict: FeatureEnabledVerdict = 'neutral',
  ) {}

  async evaluate({ request }: EvaluationContext): Promise<EvaluatorOutcome> {
    const { module } = request.resource;
    const featureCode = featureOfModule(module);
    if (featureCode === undefined) {
      return { result: { evaluator: this.name, verdict: 'Neutral', reason: `module ${module} has no feature mapping` }, inputs: { module } };
    }
    let enabled: boolean | undefined;
    try {
      enabled = await this.facts.featureEnabled(request.caller.tenantId, featureCode);
    } catch (error) {
      return {
        result: { evaluator: this.name, verdict: 'Deny', reason: `feature store unavailable for ${featureCode} (fail-closed)` },
        inputs: { module, featureCode, storeError: describeStoreError(error) },
        storeFailure: 'features',
      };
    }
    const inputs = { module, featureCode, enabled: enabled ?? null };
    if (enabled === true) {
      const verdict = this.enabledVerdict === 'allow' ? 'Allow' : 'Neutral';
      return { result: { evaluator: this.name, verdict, reason: `${FEATURE_ENABLED_REASON}: feature ${featureCode} enabled` }, inputs };
    }
    const why = enabled === false ? 'disabled' : 'not defined (fail-closed)';
    return { result: { evaluator: this.name, verdict: 'Deny', reason: `feature ${featureCode} ${why}` }, inputs };
  }
}

import { DecisionEvaluator, describeStoreError, EvaluationContext, EvaluatorOutcome } from './evaluator';
import { PolicyFactsReader } from './policy-facts';

/**
 * Which feature gates which module (lower-case module code → feature code). Spec §1 names tickets,
 * chat, workflow and reporting; the MCP module is gated by `mcp.access`. Every other module is
 * not feature-gated.
 */
export const FEATURE_BY_MODULE: Readonly<Record<string, string>> = {
  tickets: 'tickets',
  chat: 'chat',
  workflow: 'workflow',
  reporting: 'reporting',
  mcp: 'mcp.access',
};

export function featureOfModule(module: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(FEATURE_BY_MODULE, module) ? FEATURE_BY_MODULE[module] : undefined;
}

/**
 * Spec §1 Feature: the module's feature (tenant override, else global default) enabled → Allow;
 * disabled → Deny; a module without mapping → Neutral. A mapped feature with no definition at all
 * is denied too: the map says the module is gated, so a missing definition is a misconfiguration,
 * and fail-closed is the safe reading. A failure of the feature store → Deny.
 */
export class FeatureEvaluator implements DecisionEvaluator {
  readonly name = 'Feature' as const;

  constructor(private readonly facts: PolicyFactsReader) {}

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
    if (enabled === true) return { result: { evaluator: this.name, verdict: 'Allow', reason: `feature ${featureCode} enabled` }, inputs };
    const why = enabled === false ? 'disabled' : 'not defined (fail-closed)';
    return { result: { evaluator: this.name, verdict: 'Deny', reason: `feature ${featureCode} ${why}` }, inputs };
  }
}

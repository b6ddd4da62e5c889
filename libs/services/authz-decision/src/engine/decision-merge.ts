import { DecisionOutcome, EvaluatorResult } from '@lp/contracts';

/** Which merge rule of spec §1 produced the outcome. */
export type MergeRule =
  | 'AnyDeny'
  | 'AnyAllow'
  | 'AllNeutral'
  | 'DelegationNotCovered'
  | 'GrantExpiredInFlight'
  /** The tenant rule over the merge (`tenant-standing.ts`). */
  | 'TenantSuspended'
  | 'TenantStatusUnavailable';

export interface MergeOptions {
  /**
   * The caller acts for another subject (`act` claim). It is permitted only through RBAC's
   * delegated-grant Allow: an Allow of any other evaluator cannot widen the grant, only a Deny counts.
   */
  delegated?: boolean;
}

export interface MergedDecision {
  outcome: DecisionOutcome;
  permitted: boolean;
  rule: MergeRule;
  /** `evaluator: reason` of every Deny, in registration order (the first is the one reported). */
  denialReasons: string[];
  /** Obligations of every Allow, in registration order; empty unless permitted. */
  obligations: string[];
}

/**
 * Spec §1 merge rules 2–5 over the results of every evaluator (rule 1 is the engine's: all run
 * first). Any Deny rejects, whatever its position; otherwise any Allow permits, except that a
 * delegated caller needs RBAC's Allow (else `DelegationNotCovered`, a Deny); otherwise (all
 * Neutral, or no evaluators) the outcome is NoMatchingPolicy. Order only orders the denial reasons
 * and the obligations. A verdict that is none of Allow, Deny or Neutral (a broken evaluator) counts
 * as a Deny: an unreadable answer must not be able to permit.
 */
export function mergeEvaluations(results: readonly EvaluatorResult[], options: MergeOptions = {}): MergedDecision {
  const denialReasons: string[] = [];
  const obligations: string[] = [];
  let allowed = false;
  for (const result of results) {
    if (result.verdict === 'Allow') {
      allowed = true;
      if (result.obligations) obligations.push(...result.obligations);
    } else if (result.verdict !== 'Neutral') {
      const unreadable = result.verdict === 'Deny' ? '' : ` (unrecognised verdict ${JSON.stringify(result.verdict)})`;
      denialReasons.push(`${result.evaluator}: ${result.reason}${unreadable}`);
    }
  }
  if (denialReasons.length > 0) return { outcome: 'Deny', permitted: false, rule: 'AnyDeny', denialReasons, obligations: [] };
  if (allowed && options.delegated) {
    const rbac = results.find((result) => result.evaluator === 'RBAC');
    if (rbac?.verdict !== 'Allow') {
      // Denied rather than NoMatchingPolicy: another source did allow, and the audit must say why that was not enough.
      const why = rbac ? rbac.reason : 'RBAC is not registered';
      return {
        outcome: 'Deny',
        permitted: false,
        rule: 'DelegationNotCovered',
        denialReasons: [`a delegated caller is permitted only through its delegated grant (RBAC: ${why})`],
        obligations: [],
      };
    }
  }
  if (allowed) return { outcome: 'Permit', permitted: true, rule: 'AnyAllow', denialReasons, obligations };
  return { outcome: 'NoMatchingPolicy', permitted: false, rule: 'AllNeutral', denialReasons, obligations: [] };
}

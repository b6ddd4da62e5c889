import { AbacCondition, AbacVerdict, AuthorizationAction } from '@lp/contracts';

/*
 * The enumerations and the condition shape are the contract's (`@lp/contracts` abac-rule-model):
 * policy-management stores rules with the same integers, and may not import this service.
 */
export { AbacField, AbacOperator, AbacVerdict } from '@lp/contracts';
export type { AbacCondition, AbacScalar, AbacValue } from '@lp/contracts';

/**
 * A tenant ABAC rule. It applies to a request when every present filter contains the request's
 * value (an absent or empty filter means "any"); it matches when, in addition, every condition
 * holds (no conditions: matches every request it applies to). Rules are tried in ascending
 * `priority` (1 before 2), ties broken by `id`, and the first match decides.
 */
export interface AbacRule {
  id: string;
  name?: string;
  priority: number;
  verdict: AbacVerdict;
  conditions: readonly AbacCondition[];
  /** Action filter (spec §2: the action takes part in the ABAC action filter). */
  actions?: readonly AuthorizationAction[];
  /** Module filter, lower-case module codes. */
  modules?: readonly string[];
  /** Resource-type filter, lower-case resource names. */
  resourceTypes?: readonly string[];
  /** Obligations the caller must honour when this rule allows (collected by the merge). */
  obligations?: readonly string[];
}

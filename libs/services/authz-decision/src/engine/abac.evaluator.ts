import { ABAC_FIELD_TYPES, abacConditionProblem, AuthorizationAction, DecisionRequest, isAbacMember, isAuthorizationAction } from '@lp/contracts';
import { AbacCondition, AbacField, AbacOperator, AbacRule, AbacScalar, AbacVerdict } from './abac-rule';
import { DecisionEvaluator, describeStoreError, EvaluationContext, EvaluatorOutcome, NO_INPUTS } from './evaluator';
import { PolicyFactsReader } from './policy-facts';

/** The JSON type of each field's fact (the contract's table, re-exported for the core's callers). */
export { ABAC_FIELD_TYPES };

/** The fact a field names, or `undefined` when the request does not carry it. */
export function abacFact(field: AbacField, { caller, resource }: DecisionRequest): AbacScalar | undefined {
  switch (field) {
    case AbacField.ResourceStatus:
      return resource.status;
    case AbacField.ResourceAmount:
      return resource.amount;
    case AbacField.ResourceSensitivity:
      return resource.sensitivity;
    case AbacField.ResourceOwner:
      return resource.owner;
    case AbacField.ResourceOffice:
      return resource.officeId;
    case AbacField.CallerKind:
      return caller.kind;
    case AbacField.CallerIsOwner:
      return resource.owner === undefined ? undefined : resource.owner === caller.subject;
    case AbacField.CallerSubject:
      return caller.subject;
    case AbacField.CallerClientId:
      return caller.clientId;
    case AbacField.CallerActor:
      return caller.actor;
  }
}

function conditionProblem(condition: AbacCondition, index: number): string | undefined {
  return abacConditionProblem(condition, `condition ${index}`);
}

function isListOf(value: unknown, check: (item: unknown) => boolean): boolean {
  return value === undefined || (Array.isArray(value) && value.every(check));
}

function filterProblem(rule: AbacRule): string | undefined {
  if (!isListOf(rule.actions, isAuthorizationAction)) return 'action filter holds an unknown action';
  const isString = (item: unknown) => typeof item === 'string';
  if (!isListOf(rule.modules, isString) || !isListOf(rule.resourceTypes, isString)) return 'module or resource-type filter is not a list of strings';
  return undefined;
}

function bodyProblem(rule: AbacRule): string | undefined {
  if (!isAbacMember(AbacVerdict, rule.verdict)) return `unknown verdict ${String(rule.verdict)}`;
  if (!Array.isArray(rule.conditions)) return 'conditions are not a list';
  for (let i = 0; i < rule.conditions.length; i++) {
    const problem = conditionProblem(rule.conditions[i], i);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Why a rule cannot be applied as stored, or `undefined`. A malformed rule fails closed when it is
 * reached: skipping it could skip a Deny its author meant.
 */
export function abacRuleProblem(rule: AbacRule): string | undefined {
  return filterProblem(rule) ?? bodyProblem(rule);
}

export function abacConditionHolds(condition: AbacCondition, request: DecisionRequest): boolean {
  const fact = abacFact(condition.field, request);
  if (condition.operator === AbacOperator.Exists) return fact !== undefined;
  if (condition.operator === AbacOperator.NotExists) return fact === undefined;
  if (fact === undefined) return false;
  const value = condition.value;
  switch (condition.operator) {
    case AbacOperator.Equals:
      return fact === value;
    case AbacOperator.NotEquals:
      return fact !== value;
    case AbacOperator.In:
      return (value as readonly AbacScalar[]).includes(fact);
    case AbacOperator.NotIn:
      return !(value as readonly AbacScalar[]).includes(fact);
    case AbacOperator.GreaterThan:
      return typeof fact === 'number' && fact > (value as number);
    case AbacOperator.GreaterThanOrEqual:
      return typeof fact === 'number' && fact >= (value as number);
    case AbacOperator.LessThan:
      return typeof fact === 'number' && fact < (value as number);
    case AbacOperator.LessThanOrEqual:
      return typeof fact === 'number' && fact <= (value as number);
    default:
      return false;
  }
}

function filterAdmits(filter: readonly string[] | undefined, value: string, caseless: boolean): boolean {
  if (!filter || filter.length === 0) return true;
  return filter.some((item) => (caseless ? item.toLowerCase() : item) === value);
}

export function abacRuleApplies(rule: AbacRule, request: DecisionRequest): boolean {
  return (
    filterAdmits(rule.actions as readonly AuthorizationAction[] | undefined, request.action, false) &&
    filterAdmits(rule.modules, request.resource.module, true) &&
    filterAdmits(rule.resourceTypes, request.resource.resourceType, true)
  );
}

/**
 * Priority order: ascending priority, then id. A non-finite priority sorts first, so a corrupt
 * priority makes the rule's malformation decide instead of hiding it behind others.
 */
export function orderAbacRules(rules: readonly AbacRule[]): AbacRule[] {
  const key = (rule: AbacRule) => (Number.isFinite(rule.priority) ? rule.priority : Number.NEGATIVE_INFINITY);
  return [...rules].sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type RuleCheck = 'not-applicable' | 'condition-false' | 'matched' | 'malformed';

function label(rule: AbacRule): string {
  return rule.name ? `rule ${rule.id} "${rule.name}"` : `rule ${rule.id}`;
}

/**
 * Spec §1 ABAC: the tenant's rules in priority order; the first rule that applies to the request
 * (filters) and whose conditions all hold decides with its verdict. No rules, or none matching →
 * Neutral. A failure of the rule store → Deny.
 */
export class AbacEvaluator implements DecisionEvaluator {
  readonly name = 'ABAC' as const;

  constructor(private readonly facts: PolicyFactsReader) {}

  async evaluate({ request, skipInputs }: EvaluationContext): Promise<EvaluatorOutcome> {
    let rules: readonly AbacRule[];
    try {
      rules = await this.facts.abacRules(request.caller.tenantId);
    } catch (error) {
      return {
        result: { evaluator: this.name, verdict: 'Deny', reason: 'ABAC rule store unavailable (fail-closed)' },
        inputs: { storeError: describeStoreError(error) },
        storeFailure: 'abacRules',
      };
    }
    if (rules.length === 0) {
      return { result: { evaluator: this.name, verdict: 'Neutral', reason: 'no ABAC rules for the tenant' }, inputs: { rules: [] } };
    }

    const considered: { ruleId: string; priority: number; verdict: unknown; check: RuleCheck; problem?: string }[] = [];
    const ordered = orderAbacRules(rules);
    for (const rule of ordered) {
      // Malformed filters cannot say whom the rule targets, so they fail closed for every request;
      // a malformed body fails closed only for the requests the rule applies to.
      const filterIssue = filterProblem(rule);
      const applies = !filterIssue && abacRuleApplies(rule, request);
      const problem = filterIssue ?? (applies ? bodyProblem(rule) : undefined);
      const check: RuleCheck = problem
        ? 'malformed'
        : !applies
          ? 'not-applicable'
          : rule.conditions.every((condition) => abacConditionHolds(condition, request))
            ? 'matched'
            : 'condition-false';
      // The trace of every rule tried, for explain only.
      if (!skipInputs) considered.push({ ruleId: rule.id, priority: rule.priority, verdict: rule.verdict, check, ...(problem ? { problem } : {}) });
      const inputs = () => (skipInputs ? NO_INPUTS : { rules: considered, notReached: ordered.length - considered.length });
      if (check === 'malformed') {
        return { result: { evaluator: this.name, verdict: 'Deny', reason: `${label(rule)} is malformed (${problem}): fail-closed` }, inputs: inputs() };
      }
      if (check !== 'matched') continue;
      if (rule.verdict === AbacVerdict.Deny) {
        return { result: { evaluator: this.name, verdict: 'Deny', reason: `${label(rule)} matched: Deny` }, inputs: inputs() };
      }
      const obligations = rule.obligations && rule.obligations.length > 0 ? { obligations: [...rule.obligations] } : {};
      return { result: { evaluator: this.name, verdict: 'Allow', reason: `${label(rule)} matched: Allow`, ...obligations }, inputs: inputs() };
    }
    return {
      result: { evaluator: this.name, verdict: 'Neutral', reason: `no ABAC rule matched (${rules.length} considered)` },
      inputs: skipInputs ? NO_INPUTS : { rules: considered, notReached: 0 },
    };
  }
}

import type { AbacCondition, AbacRule, SaveAbacRule } from './access-api';
import type { FieldErrors } from './form-errors';

/**
 * The ABAC rule vocabulary and limits of the API (`SaveAbacRuleDto` in
 * libs/services/policy-management/src/abac-rules/dto/save-abac-rule.dto.ts and the enumerations of
 * libs/contracts/src/lib/abac-rule-model.ts), copied here because the console calls only the public
 * API and ships none of the services' code. The form checks what the DTO checks declaratively
 * (required fields, lengths, patterns, enumerations, list sizes, the conditions' JSON and shape);
 * whether a condition's value has its field's type is the API's judgement, shown beside the field.
 */
export const ABAC_VERDICTS = ['Allow', 'Deny'] as const;
export const ABAC_FIELDS = [
  'ResourceStatus',
  'ResourceAmount',
  'ResourceSensitivity',
  'ResourceOwner',
  'ResourceOffice',
  'CallerKind',
  'CallerIsOwner',
  'CallerSubject',
  'CallerClientId',
  'CallerActor',
] as const;
export const ABAC_OPERATORS = [
  'Equals',
  'NotEquals',
  'In',
  'NotIn',
  'GreaterThan',
  'GreaterThanOrEqual',
  'LessThan',
  'LessThanOrEqual',
  'Exists',
  'NotExists',
] as const;
export const AUTHORIZATION_ACTIONS = ['View', 'Create', 'Update', 'Delete', 'Assign', 'Revoke', 'Grant', 'Approve', 'Reject', 'Manage'] as const;
const PRESENCE_OPERATORS: readonly string[] = ['Exists', 'NotExists'];

export const ABAC_LIMITS = {
  name: 200,
  description: 1000,
  conditions: 20,
  filterItems: 20,
  segment: 100,
  obligations: 20,
  obligation: 200,
  priorityMax: 1_000_000,
} as const;

const SEGMENT = /^[a-z][a-z0-9-]*$/;

/** What the form edits: text as typed, turned into the API's body by `abacRuleBody`. */
export interface AbacRuleDraft {
  name: string;
  description: string;
  priority: string;
  verdict: string;
  enabled: boolean;
  actions: string[];
  modules: string;
  resourceTypes: string;
  obligations: string;
  conditions: string;
}

export const EMPTY_ABAC_DRAFT: AbacRuleDraft = {
  name: '',
  description: '',
  priority: '100',
  verdict: 'Deny',
  enabled: true,
  actions: [],
  modules: '',
  resourceTypes: '',
  obligations: '',
  conditions: '[]',
};

export const CONDITIONS_EXAMPLE = '[{ "field": "ResourceAmount", "operator": "GreaterThan", "value": 1000 }]';

export function draftOf(rule: AbacRule): AbacRuleDraft {
  return {
    name: rule.name,
    description: rule.description ?? '',
    priority: String(rule.priority),
    verdict: String(rule.verdict),
    enabled: rule.enabled,
    actions: [...rule.actions],
    modules: rule.modules.join(', '),
    resourceTypes: rule.resourceTypes.join(', '),
    obligations: rule.obligations.join('\n'),
    conditions: JSON.stringify(rule.conditions, null, 2),
  };
}

/** `a, b ,c` → `['a', 'b', 'c']` (blank entries dropped). */
export function codeList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** One obligation a line (blank lines dropped). */
export function lineList(text: string): string[] {
  return text
    .split('\n')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function validateAbacRule(draft: AbacRuleDraft): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const L = ABAC_LIMITS;

  if (draft.name.trim() === '') add('name', 'Enter a name.');
  else if (draft.name.length > L.name) add('name', `The name is ${draft.name.length} characters long; at most ${L.name} are allowed.`);
  if (draft.description.length > L.description)
    add('description', `The description is ${draft.description.length} characters long; at most ${L.description} are allowed.`);

  const priority = draft.priority.trim();
  if (priority === '') add('priority', 'Enter a priority.');
  else if (!/^\d+$/.test(priority) || Number(priority) > L.priorityMax)
    add('priority', `The priority is a whole number from 0 to ${L.priorityMax.toLocaleString('en')}.`);

  if (!(ABAC_VERDICTS as readonly string[]).includes(draft.verdict)) add('verdict', `Choose ${ABAC_VERDICTS.join(' or ')}.`);

  const unknownActions = draft.actions.filter((action) => !(AUTHORIZATION_ACTIONS as readonly string[]).includes(action));
  if (unknownActions.length > 0) add('actions', `Unknown actions: ${unknownActions.join(', ')}.`);

  for (const field of ['modules', 'resourceTypes'] as const) {
    const items = codeList(draft[field]);
    if (items.length > L.filterItems) add(field, `At most ${L.filterItems} entries.`);
    if (new Set(items).size !== items.length) add(field, 'Each entry only once.');
    const bad = items.filter((item) => item.length > L.segment || !SEGMENT.test(item));
    if (bad.length > 0) add(field, `Lower-case codes only (a letter first, then a–z, 0–9, “-”, at most ${L.segment} characters): ${bad.join(', ')}.`);
  }

  const obligations = lineList(draft.obligations);
  if (obligations.length > L.obligations) add('obligations', `At most ${L.obligations} obligations.`);
  if (obligations.some((item) => item.length > L.obligation)) add('obligations', `Each obligation is at most ${L.obligation} characters long.`);

  for (const message of conditionProblems(draft.conditions)) add('conditions', message);
  return errors;
}

/** What is wrong with the conditions' JSON (nothing: `[]`). */
export function conditionProblems(text: string): string[] {
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return [`The conditions are not valid JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (!Array.isArray(parsed)) return ['The conditions must be a JSON array of { "field", "operator", "value" } objects.'];
  const problems: string[] = [];
  if (parsed.length > ABAC_LIMITS.conditions) problems.push(`At most ${ABAC_LIMITS.conditions} conditions.`);
  parsed.forEach((condition: unknown, index) => {
    const where = `Condition ${index + 1}`;
    if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
      problems.push(`${where} must be an object.`);
      return;
    }
    const record = condition as Record<string, unknown>;
    const extra = Object.keys(record).filter((key) => !['field', 'operator', 'value'].includes(key));
    if (extra.length > 0) problems.push(`${where} has unknown properties: ${extra.join(', ')}.`);
    if (!(ABAC_FIELDS as readonly unknown[]).includes(record.field)) problems.push(`${where}: field must be one of ${ABAC_FIELDS.join(', ')}.`);
    if (!(ABAC_OPERATORS as readonly unknown[]).includes(record.operator)) problems.push(`${where}: operator must be one of ${ABAC_OPERATORS.join(', ')}.`);
    else if (PRESENCE_OPERATORS.includes(record.operator as string)) {
      if (record.value !== undefined) problems.push(`${where}: operator ${String(record.operator)} takes no value.`);
    } else if (record.value === undefined || record.value === null) {
      problems.push(`${where}: operator ${String(record.operator)} needs a value.`);
    }
  });
  return problems;
}

/** The body sent; call only on a draft without errors. */
export function abacRuleBody(draft: AbacRuleDraft): SaveAbacRule {
  return {
    name: draft.name,
    description: draft.description.trim() === '' ? null : draft.description,
    priority: Number(draft.priority.trim()),
    verdict: draft.verdict,
    conditions: draft.conditions.trim() === '' ? [] : (JSON.parse(draft.conditions) as AbacCondition[]),
    actions: AUTHORIZATION_ACTIONS.filter((action) => draft.actions.includes(action)),
    modules: codeList(draft.modules),
    resourceTypes: codeList(draft.resourceTypes),
    obligations: lineList(draft.obligations),
    enabled: draft.enabled,
  };
}

import {
  ABAC_FIELD_TYPES,
  ABAC_LIST_OPERATORS,
  ABAC_PRESENCE_OPERATORS,
  abacConditionProblem,
  AbacCondition,
  AbacField,
  AbacFieldName,
  AbacOperator,
  AbacOperatorName,
  AbacValue,
  AbacVerdict,
  AbacVerdictName,
} from '@lp/contracts';
import { AbacConditionRecord } from '../policy-store';

/** A condition as the HTTP API carries it: enumeration members by name. */
export interface NamedAbacCondition {
  field: AbacFieldName | number;
  operator: AbacOperatorName | number;
  value?: AbacValue;
}

function has<E extends object>(enumeration: E, name: unknown): name is keyof E {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(enumeration, name) && Number.isNaN(Number(name));
}

/**
 * Why `value` does not fit the condition, or `undefined`. Unknown field or operator names are
 * reported on those properties, so the value is only judged once both are known. Stricter than
 * the core's check of a stored rule: a presence operator takes no value, a list is not empty, and
 * strings and lists are bounded.
 */
export function abacValueProblem(
  fieldName: unknown,
  operatorName: unknown,
  value: unknown,
  limits: { listItems: number; stringLength: number },
): string | undefined {
  if (!has(AbacField, fieldName) || !has(AbacOperator, operatorName)) return undefined;
  const field = AbacField[fieldName];
  const operator = AbacOperator[operatorName];
  const type = ABAC_FIELD_TYPES[field];
  if (ABAC_PRESENCE_OPERATORS.has(operator)) return value === undefined ? undefined : `value must be absent for operator ${operatorName}`;
  if (value === undefined || value === null) return `value is required for operator ${operatorName}`;
  const problem = abacConditionProblem({ field, operator, value: value as AbacValue }, 'value');
  if (problem) {
    if (ABAC_LIST_OPERATORS.has(operator)) return `value must be an array of ${type} values for field ${fieldName} and operator ${operatorName}`;
    if (type !== 'number' && !['Equals', 'NotEquals'].includes(operatorName))
      return `operator ${operatorName} compares numbers; field ${fieldName} is a ${type}`;
    return `value must be a ${type} for field ${fieldName}`;
  }
  const items = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && (value.length === 0 || value.length > limits.listItems)) {
    return `value must hold 1 to ${limits.listItems} items for operator ${operatorName}`;
  }
  if (items.some((item) => typeof item === 'number' && !Number.isFinite(item))) return 'value must be a finite number';
  if (items.some((item) => typeof item === 'string' && item.length > limits.stringLength)) {
    return `value must be at most ${limits.stringLength} characters long`;
  }
  return undefined;
}

/** Names → the stored integers. Only called on validated input. */
export function storedCondition(condition: NamedAbacCondition): AbacConditionRecord {
  const field = typeof condition.field === 'number' ? condition.field : AbacField[condition.field];
  const operator = typeof condition.operator === 'number' ? condition.operator : AbacOperator[condition.operator];
  const stored: AbacCondition = { field, operator };
  if (condition.value !== undefined) stored.value = condition.value;
  return stored as AbacConditionRecord;
}

export function storedVerdict(verdict: AbacVerdictName): AbacVerdict {
  return AbacVerdict[verdict];
}

/**
 * The stored integers → names. A row written around the API (raw SQL) may hold an integer the
 * enumeration does not know; it is shown as that integer rather than hidden (the decision core
 * fails closed on it).
 */
export function namedCondition(stored: AbacConditionRecord): NamedAbacCondition {
  const field = (AbacField[stored.field] as AbacFieldName | undefined) ?? stored.field;
  const operator = (AbacOperator[stored.operator] as AbacOperatorName | undefined) ?? stored.operator;
  return stored.value === undefined ? { field, operator } : { field, operator, value: stored.value };
}

export function namedVerdict(stored: number): AbacVerdictName | number {
  return (AbacVerdict[stored] as AbacVerdictName | undefined) ?? stored;
}

/**
 * ABAC rule model shared by the decision core (authz-decision, which evaluates rules) and
 * policy-management (which stores them). Spec §2 persists a rule's condition and verdict as
 * integer enumerations, so every enumeration here has explicit integer values that must never be
 * renumbered: they are what `authz.abac_rule` holds. 0 is left unused on purpose: a defaulted or
 * missing integer column reads as malformed (and fails closed) instead of silently meaning something.
 *
 * Over HTTP the members travel by name (`"Deny"`, `"ResourceStatus"`, `"Equals"`); the names are
 * the enumeration keys, so `AbacField[name]` / `AbacField[value]` translate both ways.
 */
export enum AbacVerdict {
  Allow = 1,
  Deny = 2,
}

/** The fact a condition tests. Resource facts are loaded server-side by the guard (spec §2). */
export enum AbacField {
  /** `resource.status` (string). */
  ResourceStatus = 1,
  /** `resource.amount` (number). */
  ResourceAmount = 2,
  /** `resource.sensitivity` (string). */
  ResourceSensitivity = 3,
  /** `resource.owner` (string, a subject). */
  ResourceOwner = 4,
  /** `resource.officeId` (string). */
  ResourceOffice = 5,
  /** `caller.kind`: `user`, `application` or `delegated`. */
  CallerKind = 10,
  /** Whether `caller.subject` equals `resource.owner` (boolean); missing when the owner is unknown. */
  CallerIsOwner = 11,
  /** `caller.subject` (string). */
  CallerSubject = 12,
  /** `caller.clientId` (string). */
  CallerClientId = 13,
  /** `caller.actor` (string), the acting subject of a delegated caller. */
  CallerActor = 14,
}

/**
 * How a condition compares the fact with its value. A missing fact never satisfies a comparison
 * (only `NotExists` matches it), so a rule cannot match on facts the guard did not load; write a
 * `NotExists` rule to deny requests whose facts are missing.
 */
export enum AbacOperator {
  /** fact === value (same type). */
  Equals = 1,
  /** fact !== value (fact present). */
  NotEquals = 2,
  /** value is an array that contains the fact. */
  In = 3,
  /** value is an array that does not contain the fact (fact present). */
  NotIn = 4,
  /** numeric fact > numeric value. */
  GreaterThan = 5,
  GreaterThanOrEqual = 6,
  LessThan = 7,
  LessThanOrEqual = 8,
  /** the fact is present; value ignored. */
  Exists = 9,
  /** the fact is absent; value ignored. */
  NotExists = 10,
}

export type AbacScalar = string | number | boolean;
export type AbacValue = AbacScalar | readonly AbacScalar[];

/** One condition as stored (integers) and as the core evaluates it. */
export interface AbacCondition {
  field: AbacField;
  operator: AbacOperator;
  value?: AbacValue;
}

export type AbacFactType = 'string' | 'number' | 'boolean';

/** The JSON type of each field's fact; a condition whose value has another type is malformed. */
export const ABAC_FIELD_TYPES: Readonly<Record<AbacField, AbacFactType>> = {
  [AbacField.ResourceStatus]: 'string',
  [AbacField.ResourceAmount]: 'number',
  [AbacField.ResourceSensitivity]: 'string',
  [AbacField.ResourceOwner]: 'string',
  [AbacField.ResourceOffice]: 'string',
  [AbacField.CallerKind]: 'string',
  [AbacField.CallerIsOwner]: 'boolean',
  [AbacField.CallerSubject]: 'string',
  [AbacField.CallerClientId]: 'string',
  [AbacField.CallerActor]: 'string',
};

/** Operators that compare numbers; only a `number` field with a finite number value takes them. */
export const ABAC_ORDERING_OPERATORS: ReadonlySet<AbacOperator> = new Set([
  AbacOperator.GreaterThan,
  AbacOperator.GreaterThanOrEqual,
  AbacOperator.LessThan,
  AbacOperator.LessThanOrEqual,
]);

/** Operators that take an array value. */
export const ABAC_LIST_OPERATORS: ReadonlySet<AbacOperator> = new Set([AbacOperator.In, AbacOperator.NotIn]);

/** Operators that ignore the value (it must be absent in a stored rule written by policy-management). */
export const ABAC_PRESENCE_OPERATORS: ReadonlySet<AbacOperator> = new Set([AbacOperator.Exists, AbacOperator.NotExists]);

export type AbacVerdictName = keyof typeof AbacVerdict;
export type AbacFieldName = keyof typeof AbacField;
export type AbacOperatorName = keyof typeof AbacOperator;

function namesOf<E extends Record<string, string | number>>(enumeration: E): (keyof E & string)[] {
  return Object.keys(enumeration).filter((key) => Number.isNaN(Number(key))) as (keyof E & string)[];
}

/** Member names in declaration order, for validation messages and API documentation. */
export const ABAC_VERDICT_NAMES: readonly AbacVerdictName[] = namesOf(AbacVerdict);
export const ABAC_FIELD_NAMES: readonly AbacFieldName[] = namesOf(AbacField);
export const ABAC_OPERATOR_NAMES: readonly AbacOperatorName[] = namesOf(AbacOperator);

/** Whether `value` is one of the integers of `enumeration` (0 and unknown integers are not). */
export function isAbacMember<E extends Record<string, string | number>>(enumeration: E, value: unknown): boolean {
  return typeof value === 'number' && typeof (enumeration as Record<number, unknown>)[value] === 'string';
}

/**
 * Why a condition cannot be evaluated, or `undefined` when it is well formed. The same rules the
 * decision core applies to a stored condition, so policy-management can refuse what the core would
 * fail closed on. `where` prefixes the message (`condition 0`).
 */
export function abacConditionProblem(condition: AbacCondition, where: string): string | undefined {
  if (typeof condition !== 'object' || condition === null) return `${where} is not an object`;
  const { field, operator, value } = condition;
  if (!isAbacMember(AbacField, field)) return `${where} has unknown field ${String(field)}`;
  if (!isAbacMember(AbacOperator, operator)) return `${where} has unknown operator ${String(operator)}`;
  const type = ABAC_FIELD_TYPES[field];
  if (ABAC_PRESENCE_OPERATORS.has(operator)) return undefined;
  if (ABAC_ORDERING_OPERATORS.has(operator)) {
    return type === 'number' && typeof value === 'number' && Number.isFinite(value) ? undefined : `${where} orders a ${type} field by ${JSON.stringify(value)}`;
  }
  if (ABAC_LIST_OPERATORS.has(operator)) {
    return Array.isArray(value) && value.every((item) => typeof item === type) ? undefined : `${where} needs an array of ${type} values`;
  }
  return typeof value === type ? undefined : `${where} needs a ${type} value`;
}

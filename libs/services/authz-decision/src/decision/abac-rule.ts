import { AuthorizationAction } from '@lp/contracts';

/**
 * ABAC rule model. Spec §2 persists a rule's condition and verdict as integer enumerations, so
 * every enumeration here has explicit integer values that must never be renumbered. 0 is left
 * unused on purpose: a defaulted or missing integer column reads as malformed (and fails closed)
 * instead of silently meaning something.
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

export interface AbacCondition {
  field: AbacField;
  operator: AbacOperator;
  value?: AbacValue;
}

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

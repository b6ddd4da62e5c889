/**
 * Exclusive-gateway conditions: JSONLogic rules over the process variables. JSONLogic is data that
 * `json-logic-js` interprets; nothing is compiled (`eval`, `new Function`), so a definition author
 * cannot run code. On top of the library we allow only a fixed operator list (no `log`, no dotted
 * operator names, no operations added at run time by anyone) and refuse variable paths that reach
 * into prototypes.
 */
import * as jsonLogic from 'json-logic-js';

/** The operators a condition may use (json-logic-js built-ins minus `log`, which writes to the console). */
export const CONDITION_OPERATORS = [
  'var',
  'missing',
  'missing_some',
  'if',
  '?:',
  '==',
  '===',
  '!=',
  '!==',
  '!',
  '!!',
  'and',
  'or',
  '>',
  '>=',
  '<',
  '<=',
  'in',
  'cat',
  'substr',
  'merge',
  '+',
  '-',
  '*',
  '/',
  '%',
  'min',
  'max',
  'all',
  'some',
  'none',
  'map',
  'filter',
  'reduce',
] as const;

const ALLOWED = new Set<string>(CONDITION_OPERATORS);
/** Operators whose second argument is evaluated per array item, where `var` names the item, not a process variable. */
const ITERATING = new Set(['all', 'some', 'none', 'map', 'filter', 'reduce']);
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

export interface ConditionCheck {
  /** Why the rule is refused; empty when it is accepted. */
  errors: string[];
  /** The process variables the rule reads (top-level `var`s; names inside `map`/`filter`/… are items). */
  variables: string[];
}

/** Static check of a condition (the "conditions parse" rule). */
export function checkCondition(rule: unknown): ConditionCheck {
  const errors: string[] = [];
  const variables = new Set<string>();
  visit(rule, true, errors, variables, 'condition');
  // A multi-key object is reported by `visit`; scalars and arrays are not rules at all.
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
    errors.unshift('a condition must be a JSONLogic rule: an object with exactly one operator');
  return { errors, variables: [...variables] };
}

function visit(value: unknown, topScope: boolean, errors: string[], variables: Set<string>, at: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => visit(item, topScope, errors, variables, `${at}[${i}]`));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const keys = Object.keys(value);
  const op = keys[0];
  // json-logic-js treats a multi-key object as a literal; in a condition that is almost surely a mistake.
  if (op === undefined || keys.length !== 1) {
    errors.push(`${at}: an object must be a rule with exactly one operator, found ${keys.length} keys`);
    return;
  }
  if (!ALLOWED.has(op)) {
    errors.push(`${at}: unknown or forbidden operator "${op}"`);
    return;
  }
  const args = (value as Record<string, unknown>)[op];
  if (op === 'var') {
    checkVar(args, topScope, errors, variables, at);
    return;
  }
  const list = Array.isArray(args) ? args : [args];
  list.forEach((arg, i) => visit(arg, topScope && !(ITERATING.has(op) && i > 0), errors, variables, `${at}.${op}[${i}]`));
}

function checkVar(args: unknown, topScope: boolean, errors: string[], variables: Set<string>, at: string): void {
  const path = Array.isArray(args) ? args[0] : args;
  if (Array.isArray(args) && args.length > 2) errors.push(`${at}: "var" takes a name and an optional default`);
  if (typeof path === 'number' || path === '' || path === undefined || path === null) return;
  if (typeof path !== 'string') {
    // A computed variable name would make the read set unknowable before run time.
    errors.push(`${at}: "var" needs a literal name`);
    return;
  }
  if (path.split('.').some((segment) => FORBIDDEN_SEGMENTS.has(segment))) {
    errors.push(`${at}: variable path "${path}" is not allowed`);
    return;
  }
  if (topScope) variables.add(path);
}

export class ConditionRejectedError extends Error {
  constructor(readonly reasons: string[]) {
    super(`condition refused: ${reasons.join('; ')}`);
  }
}

/** A checked rule that still failed on these variables (e.g. `in` over a number): the flow cannot tell which branch to take. */
export class ConditionEvaluationError extends Error {
  constructor(readonly reason: string) {
    super(`condition failed: ${reason}`);
  }
}

/**
 * Whether the rule holds for the variables (JSONLogic truthiness). The rule is checked first, so an
 * unvalidated definition cannot slip a forbidden operator through.
 */
export function evaluateCondition(rule: Record<string, unknown>, variables: Record<string, unknown>): boolean {
  const { errors } = checkCondition(rule);
  if (errors.length > 0) throw new ConditionRejectedError(errors);
  try {
    return jsonLogic.truthy(jsonLogic.apply(rule as jsonLogic.RulesLogic, variables));
  } catch (error) {
    throw new ConditionEvaluationError(error instanceof Error ? error.message : String(error));
  }
}

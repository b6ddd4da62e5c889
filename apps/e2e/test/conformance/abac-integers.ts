import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/*
 * Spec §2 persists an ABAC rule's verdict and its conditions' field and operator as integer
 * enumerations. The corpus may write them by name; `authz.abac_rule` holds the integers. These are
 * the persisted values (the shared ABAC rule model in `@lp/contracts`, which the decision core and
 * policy-management both use, says they are never renumbered); the spec checks them against that
 * file's enum declarations (`enumDeclaredIn`), so they cannot drift.
 */

export const ABAC_VERDICTS: Readonly<Record<string, number>> = { Allow: 1, Deny: 2 };

export const ABAC_FIELDS: Readonly<Record<string, number>> = {
  ResourceStatus: 1,
  ResourceAmount: 2,
  ResourceSensitivity: 3,
  ResourceOwner: 4,
  ResourceOffice: 5,
  CallerKind: 10,
  CallerIsOwner: 11,
  CallerSubject: 12,
  CallerClientId: 13,
  CallerActor: 14,
};

export const ABAC_OPERATORS: Readonly<Record<string, number>> = {
  Equals: 1,
  NotEquals: 2,
  In: 3,
  NotIn: 4,
  GreaterThan: 5,
  GreaterThanOrEqual: 6,
  LessThan: 7,
  LessThanOrEqual: 8,
  Exists: 9,
  NotExists: 10,
};

export const ABAC_RULE_SOURCE = resolve(__dirname, '../../../../libs/contracts/src/lib/abac-rule-model.ts');

/** `Name = 1` members of `export enum {name} { ... }` in the shared model's source, read as text. */
export function enumDeclaredIn(source: string, name: string): Record<string, number> {
  const body = new RegExp(`export enum ${name} \\{([^}]*)\\}`).exec(source)?.[1];
  if (body === undefined) throw new Error(`enum ${name} not found in ${ABAC_RULE_SOURCE}`);
  const members: Record<string, number> = {};
  for (const [, member, value] of body.matchAll(/^\s*(\w+)\s*=\s*(\d+)\s*,?/gm)) {
    if (member !== undefined) members[member] = Number(value); // (\w+) always captures: the check only narrows the type
  }
  return members;
}

export function readAbacRuleSource(): string {
  return readFileSync(ABAC_RULE_SOURCE, 'utf8');
}

/** A name or an integer as stored: unknown integers pass through (stored data can hold them). */
export function abacInteger(table: Readonly<Record<string, number>>, value: number | string, what: string): number {
  if (typeof value === 'number') return value;
  const found = table[value];
  if (found === undefined) throw new Error(`Unknown ${what} "${value}"`);
  return found;
}

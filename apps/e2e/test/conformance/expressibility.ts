import { ConformanceCase, ConformanceFile, factsOf, PolicyFactsChange } from './corpus';
import { abacRow, changesCreating } from './policy-store';

/*
 * Whether a case's facts can exist in the `authz` tables at all. The in-memory facts accept states
 * the schema forbids (a CHECK or a foreign key). Such a case cannot be run faithfully on the
 * service: it is skipped with the reason, never approximated.
 */

const STORED_VERDICTS = [1, 2]; // ck_abac_rule_verdict

function problemOf(change: PolicyFactsChange, roles: Map<string, Set<string>>, features: Set<string>): string | undefined {
  const rolesOf = (tenantId: string): Set<string> => {
    const known = roles.get(tenantId) ?? new Set<string>();
    roles.set(tenantId, known);
    return known;
  };
  switch (change.op) {
    case 'defineRole':
      rolesOf(change.tenantId).add(change.roleName);
      return undefined;
    case 'deleteRole':
      rolesOf(change.tenantId).delete(change.roleName);
      return undefined;
    case 'bindRole':
      return rolesOf(change.tenantId).has(change.roleName)
        ? undefined
        : `user_role references authz.role by foreign key: a binding to the undefined role ${change.roleName} cannot be stored`;
    case 'putAbacRule': {
      const { verdict, conditions } = abacRow(change.rule);
      if (!STORED_VERDICTS.includes(verdict)) {
        return `authz.abac_rule CHECK ck_abac_rule_verdict admits verdicts 1 and 2 only: rule ${change.rule.id} with verdict ${verdict} cannot be stored`;
      }
      if (conditions.some((c) => !Number.isInteger(c.field) || !Number.isInteger(c.operator))) {
        return `authz.abac_rule CHECK ck_abac_rule_conditions wants integer fields and operators: rule ${change.rule.id} cannot be stored`;
      }
      return undefined;
    }
    case 'delegate':
      if (change.grant.actor === change.delegator) return 'delegated_grant CHECK ck_delegated_grant_actor: an actor cannot be its own delegator';
      return change.grant.permissions.length === 0 ? 'delegated_grant CHECK: a grant lists at least one code' : undefined;
    case 'grantTemporary':
      return change.grant.permissions.length === 0 ? 'temporary_grant CHECK: a grant lists at least one code' : undefined;
    case 'setFeatureDefault':
      if (change.enabled === null) features.delete(change.featureCode);
      else features.add(change.featureCode);
      return undefined;
    case 'setFeatureOverride':
      return change.enabled === null || features.has(change.featureCode)
        ? undefined
        : `feature_override references feature_definition by foreign key: an override of the undefined feature ${change.featureCode} cannot be stored`;
    default:
      return undefined;
  }
}

/** Why the case cannot be expressed in the `authz` tables, or `undefined` when it can. */
export function whyNotExpressible(c: ConformanceCase, file: ConformanceFile): string | undefined {
  const facts = factsOf(c, file);
  const roles = new Map<string, Set<string>>();
  const features = new Set(Object.keys(facts.featureDefaults ?? {}));
  const changes = [...changesCreating(facts), ...(c.sequence ?? []).flatMap((step) => ('change' in step ? [step.change] : []))];
  for (const change of changes) {
    const problem = problemOf(change, roles, features);
    if (problem) return problem;
  }
  return undefined;
}

import { AUTHORIZATION_ACTIONS, AuthorizationAction } from '@lp/contracts';
import { DecisionEvaluator, describeStoreError, EvaluationContext, EvaluatorOutcome, ScopeEvidence } from './evaluator';
import { PolicyFactsReader, RelationName, ResourceRelation } from './policy-facts';

/** Resource types whose instances carry relations (spec §1: Case, Client, Billing); lower case. */
export const REBAC_RESOURCE_TYPES: readonly string[] = ['case', 'client', 'billing'];

/**
 * What each relation lets its subject do on the instance.
 * - owner: every action.
 * - member: View and Update. Not Create: a Create names a new instance, so a relation to an
 *   existing one says nothing about it (adding things under a case is the child resource's own
 *   permission). Not Delete, Assign, Revoke, Grant, Approve, Reject or Manage: those change who
 *   holds the instance or its lifecycle and stay with the owner or RBAC.
 * - viewer: View.
 * An unknown relation allows nothing.
 */
export const REBAC_ALLOWED_ACTIONS: Readonly<Record<RelationName, readonly AuthorizationAction[]>> = {
  owner: AUTHORIZATION_ACTIONS,
  member: [AuthorizationAction.View, AuthorizationAction.Update],
  viewer: [AuthorizationAction.View],
};

function allowedActionsOf(relation: string): readonly AuthorizationAction[] {
  return Object.prototype.hasOwnProperty.call(REBAC_ALLOWED_ACTIONS, relation) ? REBAC_ALLOWED_ACTIONS[relation as RelationName] : [];
}

/** The relations that allow `action` on the instance; shared with DataScope resolution. */
export function relationsAllowing(
  relations: readonly ResourceRelation[],
  subject: string,
  resourceType: string,
  resourceId: string,
  action: AuthorizationAction,
): ResourceRelation[] {
  // The port is asked for exactly this instance; checking again keeps a sloppy adapter from
  // lending one instance's relation to another.
  return relations.filter(
    (r) => r.subject === subject && r.resourceType === resourceType && r.resourceId === resourceId && allowedActionsOf(r.relation).includes(action),
  );
}

export function relationScopeEvidence(allowing: readonly ResourceRelation[]): ScopeEvidence[] {
  return allowing.map((r) => ({ source: 'relation', relation: r.relation, resourceType: r.resourceType, resourceId: r.resourceId }));
}

/**
 * Spec §1 ReBAC lite: the caller's relation to a case, client or billing instance, checked against
 * `REBAC_ALLOWED_ACTIONS`. Application callers have no user subject and are Neutral; delegated
 * callers are judged by the subject they act for. No instance, no relation, an incompatible
 * relation or another resource type → Neutral. A failure of the relation store → Deny.
 */
export class RebacEvaluator implements DecisionEvaluator {
  readonly name = 'ReBAC' as const;

  constructor(private readonly facts: PolicyFactsReader) {}

  async evaluate({ request, revisions }: EvaluationContext): Promise<EvaluatorOutcome> {
    const { caller, resource, action } = request;
    const inputs: Record<string, unknown> = {
      callerKind: caller.kind,
      subject: caller.subject,
      resourceType: resource.resourceType,
      resourceId: resource.resourceId,
      action,
    };
    if (caller.kind === 'application') return this.neutral('no user subject (Application caller)', inputs);
    if (!REBAC_RESOURCE_TYPES.includes(resource.resourceType)) {
      return this.neutral(`resource type ${resource.resourceType} has no relations`, inputs);
    }
    if (resource.resourceId === undefined) return this.neutral(`no ${resource.resourceType} instance in the request`, inputs);

    let relations: readonly ResourceRelation[];
    try {
      relations = await this.facts.relations(caller.tenantId, caller.subject, resource.resourceType, resource.resourceId, revisions);
    } catch (error) {
      inputs['storeError'] = describeStoreError(error);
      return {
        result: { evaluator: this.name, verdict: 'Deny', reason: 'relation store unavailable (fail-closed)' },
        inputs,
        storeFailure: 'relations',
      };
    }
    inputs['relations'] = relations.map((r) => r.relation);
    const instance = `${resource.resourceType} ${resource.resourceId}`;
    const allowing = relationsAllowing(relations, caller.subject, resource.resourceType, resource.resourceId, action);
    if (allowing.length > 0) {
      const names = allowing.map((r) => r.relation).join(', ');
      return {
        result: { evaluator: this.name, verdict: 'Allow', reason: `relation ${names} on ${instance} allows ${action}` },
        inputs,
        scope: relationScopeEvidence(allowing),
      };
    }
    if (relations.length === 0) return this.neutral(`no relation to ${instance}`, inputs);
    const held = relations.map((r) => r.relation).join(', ');
    return this.neutral(`relation ${held} on ${instance} does not allow ${action}`, inputs);
  }

  private neutral(reason: string, inputs: Record<string, unknown>): EvaluatorOutcome {
    return { result: { evaluator: this.name, verdict: 'Neutral', reason }, inputs };
  }
}

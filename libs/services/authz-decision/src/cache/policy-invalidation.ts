import { Logger } from '@nestjs/common';
import { AuthorizationChangeTarget, authorizationChangeTarget, authorizationEventContract, EventEnvelope, EventTypes, InvalidationResult } from '@lp/contracts';
import { RevisionCounters } from '@lp/platform/cache';
import { DecisionRevisionKeys } from './decision-revision-keys';

type Plan = { names: string[] } | { ignored: string };

const A = EventTypes.authorization;
const K = DecisionRevisionKeys;

/**
 * Not `role.created`: a new role holds no permission and nobody holds it (its permissions and its
 * holders each come with their own event), so it changes no decision. Bumping the tenant policy
 * there made every role creation a miss for every cached decision of the tenant, the creator's own
 * next check included.
 */
const TENANT_POLICY_EVENTS: readonly string[] = [A.roleUpdated, A.roleDeleted, A.rolePermissionChanged];
/** A suspension denies every decision of the tenant; its status is cached under the tenant policy revision. */
const TENANT_STATUS_EVENTS: readonly string[] = [A.tenantStatusChanged];
const SUBJECT_EVENTS: readonly string[] = [A.userRoleAssigned, A.userRoleRevoked, A.delegationChanged, A.temporaryGrantChanged];
/** Role shares apply to the holders of a role by its name: these change which shares apply to whom. */
const ROLE_SHARE_EVENTS: readonly string[] = [A.roleUpdated, A.roleDeleted, A.userRoleAssigned, A.userRoleRevoked];

/**
 * The counters an event bumps (spec §4 rule 2, §6; ARCHITECTURE.md, Caches). Pure, so the map is
 * testable on its own. Where a payload does not say precisely whom a change concerns, the bump
 * widens (tenant instead of subject, global instead of tenant): an extra miss is cheap, a stale
 * permit is not.
 *
 * | event | bumps |
 * |---|---|
 * | role updated / deleted, role-permission changed | tenant policy, tenant DataScope (role scope settings) |
 * | role created | nothing (no permission, no holder yet) |
 * | ABAC rule changed | tenant policy of the effective tenant |
 * | tenant status changed (suspended, reactivated) | tenant policy (every cached decision of the tenant, and its cached status) |
 * | feature changed, scope global (or no tenant) | feature global |
 * | feature changed, scope tenant | that tenant's feature revision |
 * | user-role assigned / revoked | each named subject's revision, subject DataScope and subject ReBAC; no subject named: tenant policy, tenant DataScope and tenant ReBAC |
 * | delegation changed, temporary grant changed | each named subject's revision and subject DataScope; no subject named: tenant policy and tenant DataScope |
 * | relation changed | tenant ReBAC (part of the decision key too) and tenant DataScope |
 * | subject office changed | each named subject's DataScope only (offices never change a verdict) |
 * | anything else | nothing |
 */
export function invalidationPlan(envelope: EventEnvelope, target: AuthorizationChangeTarget = authorizationChangeTarget(envelope)): Plan {
  const type = envelope.eventType;
  // `target` is whom the change concerns, read as every consumer reads it (tenant from the payload,
  // else the envelope; the target subjects, never the actor): `authorizationChangeTarget`.
  const tenant = target.tenantId;

  if (type === A.featureChanged) {
    if (target.scope === 'tenant' && tenant !== undefined) return { names: [K.featureTenant(tenant)] };
    if (target.scope === undefined && tenant !== undefined) return { names: [K.featureTenant(tenant)] };
    // 'global', an unknown scope, or a tenant override naming no tenant.
    return { names: [K.featureGlobal] };
  }

  const known =
    TENANT_POLICY_EVENTS.includes(type) ||
    SUBJECT_EVENTS.includes(type) ||
    type === A.abacRuleChanged ||
    TENANT_STATUS_EVENTS.includes(type) ||
    type === A.relationChanged ||
    type === A.subjectOfficeChanged;
  if (!known) return { ignored: 'event type changes no cached decision fact' };
  if (tenant === undefined) return { ignored: 'tenant event without a tenant' };

  const roleShares = ROLE_SHARE_EVENTS.includes(type);
  if (TENANT_POLICY_EVENTS.includes(type)) {
    return { names: [K.tenantPolicy(tenant), K.dataScopeTenant(tenant), ...(roleShares ? [K.rebac(tenant)] : [])] };
  }
  if (type === A.abacRuleChanged || TENANT_STATUS_EVENTS.includes(type)) return { names: [K.tenantPolicy(tenant)] };
  if (type === A.relationChanged) return { names: [K.rebac(tenant), K.dataScopeTenant(tenant)] };
  if (type === A.subjectOfficeChanged) {
    const subjects = target.subjects;
    return { names: subjects.length === 0 ? [K.dataScopeTenant(tenant)] : subjects.map((subject) => K.dataScopeSubject(tenant, subject)) };
  }

  const subjects = target.subjects;
  if (subjects.length === 0) return { names: [K.tenantPolicy(tenant), K.dataScopeTenant(tenant), ...(roleShares ? [K.rebac(tenant)] : [])] };
  return {
    names: subjects.flatMap((subject) => [
      K.subject(tenant, subject),
      K.dataScopeSubject(tenant, subject),
      ...(roleShares ? [K.rebacSubject(tenant, subject)] : []),
    ]),
  };
}

/**
 * Turns `authorization.*` integration events into revision bumps. Bumping is idempotent in effect
 * (a counter only moves forward; a redelivered event costs one extra miss), so no processed-event
 * bookkeeping is needed. A failed bump rejects, so the event bus retries the delivery.
 */
export class PolicyInvalidation {
  private readonly logger = new Logger(PolicyInvalidation.name);

  constructor(private readonly revisions: RevisionCounters) {}

  async handle(envelope: EventEnvelope): Promise<InvalidationResult> {
    // The payload is checked against its contract once, for the plan and for the warning below.
    const target = authorizationChangeTarget(envelope);
    const plan = invalidationPlan(envelope, target);
    const base = { eventId: envelope.eventId, eventType: envelope.eventType };
    if (authorizationEventContract(envelope.eventType) && !target.wellFormed) {
      // Checked on receipt against its contract: still read for what it names (widening), but a
      // publisher is sending a shape the contract does not allow.
      this.logger.warn(
        `${envelope.eventType} ${envelope.eventId} does not match its contract; invalidating what it names (correlationId ${envelope.correlationId})`,
      );
    }
    if ('ignored' in plan) {
      if (plan.ignored === 'tenant event without a tenant') {
        this.logger.error(`${envelope.eventType} ${envelope.eventId} names no tenant; no cache invalidated (correlationId ${envelope.correlationId})`);
      }
      return { ...base, bumped: [], ignored: plan.ignored };
    }
    const names = [...new Set(plan.names)];
    const bumped = await Promise.all(names.map((name) => this.revisions.bump(name).then((revision) => ({ name, revision }))));
    this.logger.log(`${envelope.eventType} ${envelope.eventId}: bumped ${names.join(', ')} (correlationId ${envelope.correlationId})`);
    return { ...base, bumped };
  }
}

import { isPlatformPermission, PermissionCode, PLATFORM_TENANT, TrustedCaller } from '@lp/contracts';
import { DecisionEvaluator, describeStoreError, EvaluationContext, EvaluatorOutcome, NO_INPUTS, ScopeEvidence } from './evaluator';
import { DelegatedGrant, PolicyFactsReader, RoleBinding, SubjectPermissions, TemporaryGrant } from './policy-facts';

/** How RBAC judged one caller against one code; shared by the evaluator and DataScope resolution. */
export type RbacFinding = { allowed: true; reason: string; scope: ScopeEvidence[]; grantExpiries: Date[] } | { allowed: false; reason: string };

/** A grant counts while `now < expiresAt`; an invalid date never counts. */
export function isGrantActive(grant: { expiresAt: Date }, now: Date): boolean {
  return grant.expiresAt.getTime() > now.getTime();
}

/** Among grants that hold the code, the active one that lasts longest: it bounds the cache entry least. */
function longestActive<T extends { grantId: string; expiresAt: Date }>(grants: readonly T[], now: Date): T | undefined {
  let best: T | undefined;
  for (const grant of grants) {
    if (!isGrantActive(grant, now)) continue;
    const better =
      !best || grant.expiresAt.getTime() > best.expiresAt.getTime() || (grant.expiresAt.getTime() === best.expiresAt.getTime() && grant.grantId < best.grantId);
    if (better) best = grant;
  }
  return best;
}

function iso(date: Date): string {
  return Number.isNaN(date.getTime()) ? 'an invalid date' : date.toISOString();
}

/** The subject's own authority over a code: roles first (they do not expire), else an active temporary grant. */
function ownAuthority(permissions: SubjectPermissions, code: PermissionCode, now: Date): RbacFinding {
  const roles = permissions.roles.filter((role) => role.permissions.includes(code));
  if (roles.length > 0) {
    // Sorted, so the reason is the same whichever order a store returns the bindings in.
    const names = roles.map((role) => role.roleName).sort();
    return {
      allowed: true,
      reason: `${names.length === 1 ? 'role' : 'roles'} ${names.join(', ')}`,
      scope: roles.map((role: RoleBinding) => ({
        source: 'role',
        roleName: role.roleName,
        setting: role.dataScope,
        officeIds: permissions.officeIds,
      })),
      grantExpiries: [],
    };
  }
  const holding = permissions.temporaryGrants.filter((grant) => grant.permissions.includes(code));
  const grant: TemporaryGrant | undefined = longestActive(holding, now);
  if (grant) {
    return {
      allowed: true,
      reason: `temporary grant ${grant.grantId} (expires ${iso(grant.expiresAt)})`,
      scope: [{ source: 'temporary-grant', grantId: grant.grantId, setting: grant.dataScope, officeIds: permissions.officeIds }],
      grantExpiries: [grant.expiresAt],
    };
  }
  if (holding.length > 0) {
    const expired = holding.map((g) => `${g.grantId} expired at ${iso(g.expiresAt)}`).join('; ');
    return { allowed: false, reason: `permission ${code} absent: temporary grant ${expired}` };
  }
  return { allowed: false, reason: `permission ${code} absent` };
}

/**
 * Delegated callers (the actor acting for the subject) act only through an active delegated grant
 * from the subject to that actor that lists the code (the token's `grant_id` when it names one), and
 * only for codes the subject itself still holds: a delegation never widens the delegator's authority.
 */
function delegatedAuthority(caller: TrustedCaller, permissions: SubjectPermissions, code: PermissionCode, now: Date): RbacFinding {
  const forActor = permissions.delegatedGrants.filter(
    (grant: DelegatedGrant) => grant.actor === caller.actor && (caller.grantId === undefined || grant.grantId === caller.grantId),
  );
  const named = caller.grantId === undefined ? '' : ` ${caller.grantId}`;
  if (forActor.length === 0) {
    return { allowed: false, reason: `no delegated grant${named} from ${caller.subject} to actor ${caller.actor}` };
  }
  const covering = forActor.filter((grant) => grant.permissions.includes(code));
  if (covering.length === 0) {
    return { allowed: false, reason: `delegated grant${named} to actor ${caller.actor} does not cover ${code}` };
  }
  const grant = longestActive(covering, now);
  if (!grant) {
    const expired = covering.map((g) => `${g.grantId} expired at ${iso(g.expiresAt)}`).join('; ');
    return { allowed: false, reason: `delegated grant ${expired}` };
  }
  const own = ownAuthority(permissions, code, now);
  if (!own.allowed) {
    return { allowed: false, reason: `delegated grant ${grant.grantId} covers ${code} but the delegator ${caller.subject} does not hold it (${own.reason})` };
  }
  return {
    allowed: true,
    reason: `delegated grant ${grant.grantId} (actor ${caller.actor}, expires ${iso(grant.expiresAt)}) over ${own.reason}`,
    scope: own.scope,
    grantExpiries: [grant.expiresAt, ...own.grantExpiries],
  };
}

/** RBAC for a non-Application caller, from facts already read. Pure: the same facts give the same finding. */
export function rbacFinding(caller: TrustedCaller, code: PermissionCode, permissions: SubjectPermissions, now: Date): RbacFinding {
  const finding = caller.kind === 'delegated' ? delegatedAuthority(caller, permissions, code, now) : ownAuthority(permissions, code, now);
  return finding.allowed ? { ...finding, reason: `permission ${code} via ${finding.reason}` } : finding;
}

/**
 * Spec §1 RBAC: a caller that is not an Application caller is allowed when it holds
 * `{module}.{resource}.{action}` through a role binding, an active temporary grant or (delegated
 * callers) an active delegated grant. It denies on policy in one case: a platform-level permission
 * (`isPlatformPermission`) asked by a caller of any tenant but `PLATFORM_TENANT`, whatever that
 * tenant's roles, scopes or other evaluators say, so no tenant can reach platform scope. A failure
 * of the subject permission store is the other Deny: answering Neutral there would let another
 * evaluator's Allow permit during an outage, so it fails closed like the stores of spec §1 rule 6.
 */
export class RbacEvaluator implements DecisionEvaluator {
  readonly name = 'RBAC' as const;

  constructor(private readonly facts: PolicyFactsReader) {}

  async evaluate({ request, permissionCode, now, skipInputs, revisions }: EvaluationContext): Promise<EvaluatorOutcome> {
    const { caller } = request;
    const inputs: Record<string, unknown> = { callerKind: caller.kind, subject: caller.subject, permissionCode };
    if (caller.tenantId !== PLATFORM_TENANT && isPlatformPermission(permissionCode)) {
      inputs['platformTenant'] = PLATFORM_TENANT;
      return {
        result: {
          evaluator: this.name,
          verdict: 'Deny',
          reason: `PlatformPermissionOutsidePlatformTenant: ${permissionCode} is platform-level; tenant ${caller.tenantId} is not the platform tenant`,
        },
        inputs,
      };
    }
    if (caller.kind === 'application') {
      return this.neutral('caller is an Application caller: RBAC not applicable', inputs);
    }
    if (caller.kind === 'delegated') Object.assign(inputs, { actor: caller.actor, grantId: caller.grantId });

    let permissions: SubjectPermissions;
    try {
      permissions = await this.facts.permissionsOfSubject(caller.tenantId, caller.subject, revisions);
    } catch (error) {
      inputs['storeError'] = describeStoreError(error);
      return {
        result: { evaluator: this.name, verdict: 'Deny', reason: 'subject permission store unavailable (fail-closed)' },
        inputs,
        storeFailure: 'subjectPermissions',
      };
    }
    if (!skipInputs) this.describeFacts(inputs, caller, permissions, permissionCode, now);

    const finding = rbacFinding(caller, permissionCode, permissions, now);
    if (!finding.allowed) return this.neutral(finding.reason, skipInputs ? NO_INPUTS : inputs);
    return {
      result: { evaluator: this.name, verdict: 'Allow', reason: finding.reason },
      inputs: skipInputs ? NO_INPUTS : inputs,
      scope: finding.scope,
      grantExpiries: finding.grantExpiries,
    };
  }

  /** The subject's bindings and grants as `explain` shows them. */
  private describeFacts(
    inputs: Record<string, unknown>,
    caller: TrustedCaller,
    permissions: SubjectPermissions,
    permissionCode: PermissionCode,
    now: Date,
  ): void {
    inputs['roles'] = permissions.roles.map((role) => ({
      roleName: role.roleName,
      dataScope: role.dataScope,
      holdsCode: role.permissions.includes(permissionCode),
    }));
    inputs['temporaryGrants'] = permissions.temporaryGrants.map((grant) => ({
      grantId: grant.grantId,
      expiresAt: iso(grant.expiresAt),
      active: isGrantActive(grant, now),
      holdsCode: grant.permissions.includes(permissionCode),
    }));
    if (caller.kind === 'delegated') {
      inputs['delegatedGrants'] = permissions.delegatedGrants.map((grant) => ({
        grantId: grant.grantId,
        actor: grant.actor,
        expiresAt: iso(grant.expiresAt),
        active: isGrantActive(grant, now),
        holdsCode: grant.permissions.includes(permissionCode),
      }));
    }
  }

  private neutral(reason: string, inputs: Readonly<Record<string, unknown>>): EvaluatorOutcome {
    return { result: { evaluator: this.name, verdict: 'Neutral', reason }, inputs };
  }
}

import { MergedDecision } from './decision-merge';
import { describeStoreError } from './evaluator';
import { PolicyFactsReader, RevisionSnapshot } from './policy-facts';

/** Whether the caller's tenant may be decided for at all, as read for one decision. */
export type TenantStanding = { suspended: boolean } | { unavailable: string };

/** `DecisionResult.reason` prefixes (stable: clients and the audit key on them). */
export const TenantStandingRule = {
  /** The caller's tenant is suspended: every request of its callers is denied. */
  TenantSuspended: 'TenantSuspended',
  /** The tenant status could not be read: denied (fail-closed), flagged PolicyStoreUnavailable. */
  TenantStatusUnavailable: 'TenantStatusUnavailable',
} as const;

/** Reads the standing through the facts port; a reader without the fact means "never suspended" (see `PolicyFactsReader.tenantSuspended`). */
export async function readTenantStanding(facts: PolicyFactsReader, tenantId: string, revisions: RevisionSnapshot | undefined): Promise<TenantStanding> {
  if (!facts.tenantSuspended) return { suspended: false };
  try {
    return { suspended: await facts.tenantSuspended(tenantId, revisions) };
  } catch (error) {
    return { unavailable: describeStoreError(error) };
  }
}

/**
 * The tenant rule, applied over the evaluators' merge: a suspended tenant's callers are denied
 * whatever any evaluator answered (an Allow included), and so are they when the status cannot be
 * read (a store outage must not lift a suspension). Pure.
 */
export function applyTenantStanding(merge: MergedDecision, tenantId: string, standing: TenantStanding): MergedDecision {
  if ('suspended' in standing && !standing.suspended) return merge;
  const unavailable = 'unavailable' in standing;
  return {
    outcome: 'Deny',
    permitted: false,
    rule: unavailable ? TenantStandingRule.TenantStatusUnavailable : TenantStandingRule.TenantSuspended,
    denialReasons: [unavailable ? `the status of tenant ${tenantId} could not be read (fail-closed)` : `tenant ${tenantId} is suspended`],
    obligations: [],
  };
}

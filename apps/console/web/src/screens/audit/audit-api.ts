/** `GET /api/authorization/permission-audit/decisions` and `/changes` (both need `authorization.permission-audit.view`). */
export const DECISIONS = '/api/authorization/permission-audit/decisions';
export const CHANGES = '/api/authorization/permission-audit/changes';

export const OUTCOMES = ['Permit', 'Deny', 'NoMatchingPolicy'] as const;
/** The merge rule that decided (`reasonCode` of a record, and its filter). */
export const REASON_CODES = [
  'AnyAllow',
  'AnyDeny',
  'AllNeutral',
  'DelegationNotCovered',
  'GrantExpiredInFlight',
  'TenantSuspended',
  'TenantStatusUnavailable',
] as const;
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** One audited decision, as authz-decision kept it (with its evaluators' verdicts at the time). */
export interface AuditedDecision {
  decisionId: string;
  decidedAt: string;
  tenantId: string;
  callerKind: 'user' | 'application' | 'delegated' | string;
  subject: string;
  clientId: string | null;
  actor: string | null;
  action: string;
  module: string;
  resourceType: string;
  resourceId: string | null;
  resourceFacts: Record<string, unknown>;
  outcome: string;
  /** Null on records older than the field. */
  reasonCode: string | null;
  /** The refusal over the evaluators' verdicts (`DelegationNotCovered: …`), else null. */
  reason: string | null;
  evaluations: Array<{ evaluator: string; verdict: string; reason: string }>;
  cached: boolean;
  latencyMs: number;
  correlationId: string | null;
  failure: string | null;
}

/** What a reason code means, in a few words (for a person reading the audit). */
export function reasonCodeMeaning(code: string | null): string {
  switch (code) {
    case 'AnyAllow':
      return 'an evaluator allowed';
    case 'AnyDeny':
      return 'an evaluator denied';
    case 'AllNeutral':
      return 'nothing applied';
    case 'DelegationNotCovered':
      return 'not covered by the delegation';
    case 'GrantExpiredInFlight':
      return 'a grant expired while deciding';
    case 'TenantSuspended':
      return 'the tenant is suspended';
    case 'TenantStatusUnavailable':
      return 'the tenant status could not be read';
    default:
      return '';
  }
}

/** `GET …/decisions/{id}`: one record of the caller's tenant (404 for any other). */
export const decisionPath = (decisionId: string) => `${DECISIONS}/${encodeURIComponent(decisionId)}`;

/** One row of the policy change log. */
export interface PolicyChange {
  id: string;
  tenantId: string | null;
  actor: string;
  actorKind: string;
  change: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  correlationId: string | null;
  occurredAt: string;
}

/** Target types the change log writes (hints for the filter; it stays free text). */
export const TARGET_TYPES = [
  'role',
  'user',
  'abac-rule',
  'feature',
  'field-policy',
  'resource-relation',
  'delegated-grant',
  'temporary-grant',
  'permission-request',
  'catalog',
  'tenant',
];

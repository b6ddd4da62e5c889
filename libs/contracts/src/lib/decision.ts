import { AuthorizationAction } from './authorization-action';
import { DataScope } from './data-scope';
import { TrustedCaller } from './trusted-caller';

/** Spec §2 resource descriptor. The tenant is not part of it: it always comes from the caller. */
export interface ResourceDescriptor {
  module: string;
  resourceType: string;
  resourceId?: string;
  status?: string;
  amount?: number;
  sensitivity?: string;
  /** Owner subject, loaded server-side. */
  owner?: string;
  /** Office the resource belongs to, loaded server-side. */
  officeId?: string;
}

export interface DecisionRequest {
  caller: TrustedCaller;
  resource: ResourceDescriptor;
  action: AuthorizationAction;
  correlationId?: string;
  /**
   * `authz.decide` only: put every evaluator's verdict and reason (`evaluations`) in the reply. A
   * guard does not need them (they stay in the audit record and `authz.explain`), so by default the
   * reply is lean. Not part of the question: it changes neither the answer nor the cache key.
   */
  withReasons?: boolean;
}

export type DecisionOutcome = 'Permit' | 'Deny' | 'NoMatchingPolicy';
export type EvaluatorVerdict = 'Allow' | 'Deny' | 'Neutral';
export type EvaluatorName = 'RBAC' | 'AppScope' | 'ABAC' | 'ReBAC' | 'Feature';

export interface EvaluatorResult {
  evaluator: EvaluatorName;
  verdict: EvaluatorVerdict;
  /** What decided it: the role or grant, the rule, the relation, the feature, or why it was neutral. */
  reason: string;
  obligations?: string[];
}

export interface DecisionRevisions {
  tenantPolicy: number;
  subject: number;
  featureGlobal: number;
  featureTenant: number;
}

export interface DecisionResult {
  outcome: DecisionOutcome;
  permitted: boolean;
  decisionId: string;
  evaluations: EvaluatorResult[];
  obligations: string[];
  dataScope: DataScope;
  revisions?: DecisionRevisions;
  cached: boolean;
  /** Set when the decision failed closed for an infrastructure reason (e.g. `AuditUnavailable`). */
  failure?: string;
  /**
   * Set when the merge refused although no evaluator denied: `DelegationNotCovered: …` (a delegated
   * caller permitted only by a source other than its delegated grant) or `GrantExpiredInFlight: …`.
   */
  reason?: string;
  /**
   * ISO instant: the earliest expiry of a temporary or delegated grant behind an Allow. The answer
   * must not be reused past it (a cache entry never outlives it). Absent when no grant was involved.
   */
  validUntil?: string;
}

/**
 * The reply of `authz.decide` / `authz.decide-batch`: what a guard acts on. `evaluations` only
 * when the request asked `withReasons: true`; `revisions` never (they are the cache's business).
 */
export type DecisionReply = Omit<DecisionResult, 'evaluations' | 'revisions'> & { evaluations?: EvaluatorResult[] };

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
}

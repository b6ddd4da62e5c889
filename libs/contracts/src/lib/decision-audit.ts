import { z } from 'zod';
import { AUTHORIZATION_ACTIONS, AuthorizationAction } from './authorization-action';
import { CORRELATION_ID_PATTERN } from './correlation-id';
import type { DecisionOutcome, EvaluatorName, EvaluatorVerdict } from './decision';
import { PERMISSION_SEGMENT } from './permission-code';
import { CALLER_KINDS, CallerKind } from './trusted-caller';

/** One page of a list, zero-based (the platform's paging convention). */
export interface Page<T> {
  items: T[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

/** Largest page any list returns. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** The resource facts a decision was made on (spec §2), kept as they were sent. */
export interface AuditedResourceFacts {
  status?: string;
  amount?: number;
  sensitivity?: string;
  owner?: string;
  officeId?: string;
}

/** One evaluator's part in a decision. */
export interface AuditedEvaluation {
  evaluator: EvaluatorName;
  verdict: EvaluatorVerdict;
  reason: string;
}

/**
 * Why a decision came out as it did: the merge rule that decided (`authz.explain`'s `merge.rule`).
 * `AnyAllow` permitted; `AnyDeny` an evaluator denied (its reason is in the evaluations);
 * `AllNeutral` nothing applied (NoMatchingPolicy); the others are refusals over the evaluators'
 * verdicts, the decision's `reason` saying why (`DelegationNotCovered: …`).
 */
export const DECISION_REASON_CODES = [
  'AnyAllow',
  'AnyDeny',
  'AllNeutral',
  'DelegationNotCovered',
  'GrantExpiredInFlight',
  'TenantSuspended',
  'TenantStatusUnavailable',
] as const;
export type DecisionReasonCode = (typeof DECISION_REASON_CODES)[number];

/** One audit record as `authz.audit.query` returns it: `decidedAt` as an ISO instant. */
export interface DecisionAuditItem {
  decisionId: string;
  decidedAt: string;
  tenantId: string;
  callerKind: CallerKind;
  subject: string;
  clientId: string | null;
  actor: string | null;
  action: string;
  module: string;
  resourceType: string;
  resourceId: string | null;
  resourceFacts: AuditedResourceFacts;
  outcome: DecisionOutcome;
  /** Null on records written before reason codes were kept. */
  reasonCode: DecisionReasonCode | null;
  /** The merge's refusal when no evaluator denied (`DelegationNotCovered: …`), else null. */
  reason: string | null;
  evaluations: AuditedEvaluation[];
  cached: boolean;
  latencyMs: number;
  correlationId: string | null;
  revisions: Record<string, number> | null;
  failure: string | null;
}

/** The longest text filter of the decision audit (a subject, a client id). */
export const MAX_AUDIT_FILTER_LENGTH = 255;

const segmentFilter = z.string().max(60).regex(PERMISSION_SEGMENT, 'must be a permission code segment: lower-case letters, digits and "-", a letter first');

/**
 * `authz.audit.query`: the caller's tenant bounds it; newest first. Every filter given must hold;
 * `decisionId` answers the one record (`GET /permission-audit/decisions/{id}`).
 */
export const decisionAuditQuerySchema = z.strictObject({
  decisionId: z.guid().optional(),
  subject: z.string().min(1).max(MAX_AUDIT_FILTER_LENGTH).optional(),
  outcome: z.enum(['Permit', 'Deny', 'NoMatchingPolicy']).optional(),
  callerKind: z.enum(CALLER_KINDS as [CallerKind, ...CallerKind[]]).optional(),
  clientId: z.string().min(1).max(MAX_AUDIT_FILTER_LENGTH).optional(),
  module: segmentFilter.optional(),
  resourceType: segmentFilter.optional(),
  action: z.enum(AUTHORIZATION_ACTIONS as [AuthorizationAction, ...AuthorizationAction[]]).optional(),
  reasonCode: z.enum(DECISION_REASON_CODES).optional(),
  correlationId: z.string().regex(CORRELATION_ID_PATTERN, 'must be 1-128 letters, digits, ".", "_", ":" or "-"').optional(),
  /** Inclusive ISO instant. */
  from: z.string().optional(),
  /** Exclusive ISO instant. */
  to: z.string().optional(),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type DecisionAuditQueryPayload = z.input<typeof decisionAuditQuerySchema>;

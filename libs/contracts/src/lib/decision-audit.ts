import { z } from 'zod';
import type { DecisionOutcome, EvaluatorName, EvaluatorVerdict } from './decision';

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

/** One audit record as `authz.audit.query` returns it: `decidedAt` as an ISO instant. */
export interface DecisionAuditItem {
  decisionId: string;
  decidedAt: string;
  tenantId: string;
  callerKind: string;
  subject: string;
  clientId: string | null;
  actor: string | null;
  action: string;
  module: string;
  resourceType: string;
  resourceId: string | null;
  resourceFacts: AuditedResourceFacts;
  outcome: DecisionOutcome;
  evaluations: AuditedEvaluation[];
  cached: boolean;
  latencyMs: number;
  correlationId: string | null;
  revisions: Record<string, number> | null;
  failure: string | null;
}

/** `authz.audit.query`: the caller's tenant bounds it; newest first. */
export const decisionAuditQuerySchema = z.strictObject({
  subject: z.string().min(1).optional(),
  outcome: z.enum(['Permit', 'Deny', 'NoMatchingPolicy']).optional(),
  /** Inclusive ISO instant. */
  from: z.string().optional(),
  /** Exclusive ISO instant. */
  to: z.string().optional(),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type DecisionAuditQueryPayload = z.input<typeof decisionAuditQuerySchema>;

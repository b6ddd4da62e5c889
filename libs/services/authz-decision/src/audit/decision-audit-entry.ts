import type { CallerKind, DecisionOutcome, DecisionRequest, DecisionResult } from '@lp/contracts';
import type { AuditedEvaluation, AuditedResourceFacts } from './decision-audit-record.entity';

/** What the decision service hands to `DecisionAuditWriter.record` for every decision. */
export interface DecisionAuditEntry {
  decisionId: string;
  decidedAt: Date;
  tenantId: string;
  callerKind: CallerKind;
  subject: string;
  clientId?: string;
  actor?: string;
  action: string;
  module: string;
  resourceType: string;
  resourceId?: string;
  resourceFacts: AuditedResourceFacts;
  outcome: DecisionOutcome;
  evaluations: AuditedEvaluation[];
  cached: boolean;
  latencyMs: number;
  correlationId?: string;
  revisions?: Record<string, number>;
  failure?: string;
}

/** The audit entry of one answered decision (computed or from the cache). */
export function decisionAuditEntry(
  request: DecisionRequest,
  result: DecisionResult,
  measured: { decidedAt: Date; latencyMs: number; correlationId?: string },
): DecisionAuditEntry {
  const { caller, resource } = request;
  const facts: AuditedResourceFacts = {};
  if (resource.status !== undefined) facts.status = resource.status;
  if (resource.amount !== undefined) facts.amount = resource.amount;
  if (resource.sensitivity !== undefined) facts.sensitivity = resource.sensitivity;
  if (resource.owner !== undefined) facts.owner = resource.owner;
  if (resource.officeId !== undefined) facts.officeId = resource.officeId;
  return {
    decisionId: result.decisionId,
    decidedAt: measured.decidedAt,
    tenantId: caller.tenantId,
    callerKind: caller.kind,
    subject: caller.subject,
    clientId: caller.clientId,
    actor: caller.actor,
    action: request.action,
    module: resource.module,
    resourceType: resource.resourceType,
    resourceId: resource.resourceId,
    resourceFacts: facts,
    outcome: result.outcome,
    evaluations: result.evaluations.map(({ evaluator, verdict, reason }) => ({ evaluator, verdict, reason })),
    cached: result.cached,
    latencyMs: measured.latencyMs,
    correlationId: measured.correlationId ?? request.correlationId,
    revisions: result.revisions ? { ...result.revisions } : undefined,
    failure: result.failure,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The entry as the writer keeps it: a detached copy (a caller mutating its object later cannot
 * change the record) with JSON's shape, so memory, the spool file and a replay hold the same thing.
 */
export interface QueuedAuditEntry extends Omit<DecisionAuditEntry, 'decidedAt'> {
  decidedAt: string;
}

/**
 * Checks what would make PostgreSQL refuse the row for reasons of ours (a programming error, so it
 * throws at once on the hot path instead of poisoning a batch later) and copies the entry.
 */
export function queuedAuditEntry(entry: DecisionAuditEntry): QueuedAuditEntry {
  if (typeof entry.decisionId !== 'string' || !UUID.test(entry.decisionId)) throw new TypeError(`Audit entry decisionId must be a UUID, got ${String(entry.decisionId)}`);
  const decidedAt = entry.decidedAt instanceof Date ? entry.decidedAt : new Date(entry.decidedAt);
  if (Number.isNaN(decidedAt.getTime())) throw new TypeError(`Audit entry ${entry.decisionId}: decidedAt is not a valid date`);
  if (!Number.isFinite(entry.latencyMs)) throw new TypeError(`Audit entry ${entry.decisionId}: latencyMs must be a finite number`);
  return JSON.parse(JSON.stringify({ ...entry, decidedAt: decidedAt.toISOString() })) as QueuedAuditEntry;
}

/** Column order of the INSERT, and each column's value for one entry. */
export const AUDIT_COLUMNS = [
  'decision_id',
  'decided_at',
  'tenant_id',
  'caller_kind',
  'subject',
  'client_id',
  'actor',
  'action',
  'module',
  'resource_type',
  'resource_id',
  'resource_facts',
  'outcome',
  'evaluations',
  'cached',
  'latency_ms',
  'correlation_id',
  'revisions',
  'failure',
] as const;

/** Columns whose parameter is JSON text cast to jsonb (pg would send a JS array as a PostgreSQL array). */
export const AUDIT_JSONB_COLUMNS: ReadonlySet<string> = new Set(['resource_facts', 'evaluations', 'revisions']);

export function auditRowValues(entry: QueuedAuditEntry): unknown[] {
  return [
    entry.decisionId,
    entry.decidedAt,
    entry.tenantId,
    entry.callerKind,
    entry.subject,
    entry.clientId ?? null,
    entry.actor ?? null,
    entry.action,
    entry.module,
    entry.resourceType,
    entry.resourceId ?? null,
    JSON.stringify(entry.resourceFacts ?? {}),
    entry.outcome,
    JSON.stringify(entry.evaluations ?? []),
    entry.cached,
    entry.latencyMs,
    entry.correlationId ?? null,
    entry.revisions === undefined ? null : JSON.stringify(entry.revisions),
    entry.failure ?? null,
  ];
}

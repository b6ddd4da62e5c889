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
 * throws at once on the hot path instead of poisoning a batch later); returns `decidedAt` as ISO text.
 */
function checkedDecidedAt(entry: DecisionAuditEntry): string {
  if (typeof entry.decisionId !== 'string' || !UUID.test(entry.decisionId)) throw new TypeError(`Audit entry decisionId must be a UUID, got ${String(entry.decisionId)}`);
  const decidedAt = entry.decidedAt instanceof Date ? entry.decidedAt : new Date(entry.decidedAt);
  if (Number.isNaN(decidedAt.getTime())) throw new TypeError(`Audit entry ${entry.decisionId}: decidedAt is not a valid date`);
  if (!Number.isFinite(entry.latencyMs)) throw new TypeError(`Audit entry ${entry.decisionId}: latencyMs must be a finite number`);
  return decidedAt.toISOString();
}

/** Checks and copies an entry built elsewhere (every value in it is flat: strings, numbers, flat objects). */
export function queuedAuditEntry(entry: DecisionAuditEntry): QueuedAuditEntry {
  return {
    ...entry,
    decidedAt: checkedDecidedAt(entry),
    resourceFacts: { ...entry.resourceFacts },
    evaluations: entry.evaluations.map(({ evaluator, verdict, reason }) => ({ evaluator, verdict, reason })),
    revisions: entry.revisions === undefined ? undefined : { ...entry.revisions },
  };
}

/**
 * The queued entry of one answered decision, built once on the hot path: `decisionAuditEntry`
 * already copies everything mutable out of the request and result, so nothing is copied twice.
 */
export function queuedDecisionAuditEntry(
  request: DecisionRequest,
  result: DecisionResult,
  measured: { decidedAt: Date; latencyMs: number; correlationId?: string },
): QueuedAuditEntry {
  const entry = decisionAuditEntry(request, result, measured);
  return { ...entry, decidedAt: checkedDecidedAt(entry) };
}

/** The columns of the audit row in INSERT order, with the PostgreSQL type each array parameter is cast to. */
export const AUDIT_COLUMNS = [
  ['decision_id', 'uuid'],
  ['decided_at', 'timestamptz'],
  ['tenant_id', 'text'],
  ['caller_kind', 'text'],
  ['subject', 'text'],
  ['client_id', 'text'],
  ['actor', 'text'],
  ['action', 'text'],
  ['module', 'text'],
  ['resource_type', 'text'],
  ['resource_id', 'text'],
  ['resource_facts', 'jsonb'],
  ['outcome', 'text'],
  ['evaluations', 'jsonb'],
  ['cached', 'boolean'],
  ['latency_ms', 'real'],
  ['correlation_id', 'text'],
  ['revisions', 'jsonb'],
  ['failure', 'text'],
] as const;

/** One entry's value per column of `AUDIT_COLUMNS` (jsonb columns as JSON text). */
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

/**
 * One INSERT for any number of entries: a typed array per column, turned back into rows by
 * `unnest`. The statement text and its 19 parameters are the same whatever the batch size, so
 * PostgreSQL parses a short statement instead of one with 19 placeholders per row, and a batch is
 * not limited by the 65,535 parameters of the protocol. A decision id already present (a retried
 * or replayed batch) is skipped.
 */
export function auditInsert(table: string, entries: readonly QueuedAuditEntry[]): { sql: string; parameters: unknown[][] } {
  const parameters: unknown[][] = AUDIT_COLUMNS.map(() => new Array<unknown>(entries.length));
  entries.forEach((entry, row) => auditRowValues(entry).forEach((value, column) => (parameters[column][row] = value)));
  const columns = AUDIT_COLUMNS.map(([name]) => `"${name}"`).join(', ');
  const arrays = AUDIT_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  return { sql: `INSERT INTO ${table} (${columns}) SELECT * FROM unnest(${arrays}) ON CONFLICT ("decision_id") DO NOTHING`, parameters };
}

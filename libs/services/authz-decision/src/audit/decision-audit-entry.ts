import { DECISION_REASON_CODES } from '@lp/contracts';
import type { AuditedEvaluation, AuditedResourceFacts, CallerKind, DecisionOutcome, DecisionReasonCode, DecisionRequest, DecisionResult } from '@lp/contracts';

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
  reasonCode: DecisionReasonCode;
  reason?: string;
  evaluations: AuditedEvaluation[];
  cached: boolean;
  latencyMs: number;
  correlationId?: string;
  revisions?: Record<string, number>;
  failure?: string;
}

const REFUSAL_CODES: ReadonlySet<string> = new Set(DECISION_REASON_CODES);

/**
 * The merge rule behind a result: a refusal over the evaluators says which in its `reason`
 * (`{rule}: {why}`); otherwise the outcome names it (a Deny is always an evaluator's, since the
 * refusals all carry a reason). So the audit keeps the rule without the reply or the cache carrying it.
 */
export function reasonCodeOf(result: Pick<DecisionResult, 'outcome' | 'reason'>): DecisionReasonCode {
  if (result.reason !== undefined) {
    const code = result.reason.slice(0, result.reason.indexOf(':'));
    if (REFUSAL_CODES.has(code)) return code as DecisionReasonCode;
  }
  return result.outcome === 'Permit' ? 'AnyAllow' : result.outcome === 'NoMatchingPolicy' ? 'AllNeutral' : 'AnyDeny';
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
    reasonCode: reasonCodeOf(result),
    reason: result.reason,
    evaluations: result.evaluations.map(({ evaluator, verdict, reason }) => ({ evaluator, verdict, reason })),
    cached: result.cached,
    latencyMs: measured.latencyMs,
    correlationId: measured.correlationId ?? request.correlationId,
    revisions: result.revisions ? { ...result.revisions } : undefined,
    failure: result.failure,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An audit entry in its JSON form: what the spool file holds per line and `rejected()` gives back. */
export interface QueuedAuditEntry extends Omit<DecisionAuditEntry, 'decidedAt'> {
  decidedAt: string;
}

/**
 * One record as the writer keeps it: the entry's JSON text, made once on the hot path. Text is
 * the detached copy (a caller changing its objects later cannot change the record), one string
 * instead of a dozen objects kept alive until the batch is written, and exactly the bytes the
 * spool file and the INSERT carry.
 */
export interface AuditRecordText {
  decisionId: string;
  json: string;
}

/**
 * Checks what would make PostgreSQL refuse the row for reasons of ours (a programming error, so it
 * throws at once on the hot path instead of poisoning a batch later) and serializes the entry.
 */
export function auditRecordText(entry: DecisionAuditEntry): AuditRecordText {
  if (typeof entry.decisionId !== 'string' || !UUID.test(entry.decisionId))
    throw new TypeError(`Audit entry decisionId must be a UUID, got ${String(entry.decisionId)}`);
  const decidedAt = entry.decidedAt instanceof Date ? entry.decidedAt : new Date(entry.decidedAt);
  if (Number.isNaN(decidedAt.getTime())) throw new TypeError(`Audit entry ${entry.decisionId}: decidedAt is not a valid date`);
  if (!Number.isFinite(entry.latencyMs)) throw new TypeError(`Audit entry ${entry.decisionId}: latencyMs must be a finite number`);
  // Object.assign, not `{ ...entry, decidedAt }`: V8 (Node 20) takes a slow path (about 1 µs) for an object spread followed by more properties.
  const queued: QueuedAuditEntry = Object.assign({}, entry, { decidedAt: decidedAt.toISOString() });
  return { decisionId: entry.decisionId, json: JSON.stringify(queued) };
}

/** A spool line back into a record; undefined for a line that is not an entry. */
export function auditRecordFromJson(json: string): AuditRecordText | undefined {
  const entry = JSON.parse(json) as Partial<QueuedAuditEntry> | null;
  return typeof entry?.decisionId === 'string' ? { decisionId: entry.decisionId, json } : undefined;
}

/** The audit columns with the entry field and the column's PostgreSQL type. */
const AUDIT_COLUMNS = [
  ['decision_id', 'decisionId', 'uuid'],
  ['decided_at', 'decidedAt', 'timestamptz'],
  ['tenant_id', 'tenantId', 'text'],
  ['caller_kind', 'callerKind', 'text'],
  ['subject', 'subject', 'text'],
  ['client_id', 'clientId', 'text'],
  ['actor', 'actor', 'text'],
  ['action', 'action', 'text'],
  ['module', 'module', 'text'],
  ['resource_type', 'resourceType', 'text'],
  ['resource_id', 'resourceId', 'text'],
  ['resource_facts', 'resourceFacts', 'json'],
  ['outcome', 'outcome', 'text'],
  ['reason_code', 'reasonCode', 'text'],
  ['reason', 'reason', 'text'],
  ['evaluations', 'evaluations', 'json'],
  ['cached', 'cached', 'boolean'],
  ['latency_ms', 'latencyMs', 'real'],
  ['correlation_id', 'correlationId', 'text'],
  ['revisions', 'revisions', 'json'],
  ['failure', 'failure', 'text'],
] as const;

/** Fields the JSON may leave out (undefined is not written) that the table does not take as NULL. */
const DEFAULTS: Partial<Record<(typeof AUDIT_COLUMNS)[number][1], string>> = { resourceFacts: `'{}'::json`, evaluations: `'[]'::json` };

/**
 * The one INSERT for any number of records: their JSON texts as one JSON array parameter
 * (`auditInsertParameter`), turned into rows by `json_to_recordset` (a field the JSON leaves out
 * is NULL). The statement is the same whatever the batch size, and no value is escaped one by one
 * in JavaScript. A decision id already present (a retried or replayed batch) is skipped.
 *
 * The document columns are `json`, taken from the record set as they are (see
 * `DecisionAuditJsonColumns1763700000101` for what jsonb cost here).
 */
export function auditInsertSql(table: string): string {
  const columns = AUDIT_COLUMNS.map(([column]) => `"${column}"`).join(', ');
  const values = AUDIT_COLUMNS.map(([, field]) => (DEFAULTS[field] ? `COALESCE(r."${field}", ${DEFAULTS[field]})` : `r."${field}"`)).join(', ');
  const shape = AUDIT_COLUMNS.map(([, field, type]) => `"${field}" ${type}`).join(', ');
  return `INSERT INTO ${table} (${columns}) SELECT ${values} FROM json_to_recordset($1::json) AS r(${shape}) ON CONFLICT ("decision_id", "decided_at") DO NOTHING`;
}

export function auditInsertParameter(records: readonly AuditRecordText[]): string {
  return `[${records.map((r) => r.json).join(',')}]`;
}

// NUL is the character PostgreSQL text refuses; matching it is the point.
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The record with every string made storable: a NUL becomes the six characters `\u0000`, a lone
 * surrogate becomes U+FFFD. For a record PostgreSQL refused for its content: an answered decision
 * is kept in this form rather than not at all (the edge refuses such input, so this is a last line).
 * Undefined when escaping changes nothing (the refusal had another cause).
 */
export function escapedAuditRecord(record: AuditRecordText): AuditRecordText | undefined {
  let changed = false;
  const json = JSON.stringify(JSON.parse(record.json), (_key, value: unknown) => {
    if (typeof value !== 'string') return value;
    const escaped = value.replace(NUL, '\\u0000').replace(LONE_SURROGATE, '\uFFFD');
    if (escaped !== value) changed = true;
    return escaped;
  });
  return changed ? { decisionId: record.decisionId, json } : undefined;
}

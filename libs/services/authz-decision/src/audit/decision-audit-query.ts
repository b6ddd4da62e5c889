import {
  AUTHORIZATION_ACTIONS,
  AuthorizationAction,
  CALLER_KINDS,
  CallerKind,
  DECISION_REASON_CODES,
  DecisionAuditItem,
  DecisionOutcome,
  DecisionReasonCode,
  ValidationError,
} from '@lp/contracts';
import type { Page } from '@lp/platform/http';
import { DataSource } from 'typeorm';
import { DecisionAuditRecord } from './decision-audit-record.entity';

export const MAX_AUDIT_PAGE_SIZE = 100;
const OUTCOMES: readonly DecisionOutcome[] = ['Permit', 'Deny', 'NoMatchingPolicy'];

export interface DecisionAuditQueryParams {
  /** Always required: the query never reads across tenants. */
  tenantId: string;
  /** The one record (`GET /permission-audit/decisions/{id}`). */
  decisionId?: string;
  subject?: string;
  outcome?: DecisionOutcome;
  callerKind?: CallerKind;
  clientId?: string;
  module?: string;
  resourceType?: string;
  action?: AuthorizationAction;
  reasonCode?: DecisionReasonCode;
  correlationId?: string;
  /** Inclusive. */
  from?: Date | string;
  /** Exclusive. */
  to?: Date | string;
  /** Zero-based (the platform's paging convention). */
  pageIndex: number;
  /** 1 to 100. */
  pageSize: number;
}

function instant(value: Date | string | undefined, field: string, problems: Record<string, string[]>): Date | undefined {
  if (value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) problems[field] = ['must be an ISO date-time'];
  return date;
}

/** Exact-match filters, each named as its column's property. */
const EXACT_FILTERS = [
  'decisionId',
  'subject',
  'outcome',
  'callerKind',
  'clientId',
  'module',
  'resourceType',
  'action',
  'reasonCode',
  'correlationId',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ENUMERATED: Partial<Record<(typeof EXACT_FILTERS)[number], readonly string[]>> = {
  outcome: OUTCOMES,
  callerKind: CALLER_KINDS,
  action: AUTHORIZATION_ACTIONS,
  reasonCode: DECISION_REASON_CODES,
};

/**
 * Reads the decision audit (RPC `authz.audit.query`), newest first, always inside one tenant. A
 * paging tie-break on the decision id keeps pages stable when decisions share an instant.
 * Every filter given must hold (exact matches; module and resource type as the decision stored
 * them, lower case).
 * @throws ValidationError for a missing tenant, bad paging, a filter that is not a string or not one
 * of its values, or bad dates.
 */
export class DecisionAuditQuery {
  constructor(private readonly dataSource: DataSource) {}

  async query(params: DecisionAuditQueryParams): Promise<Page<DecisionAuditItem>> {
    const problems: Record<string, string[]> = {};
    if (typeof params.tenantId !== 'string' || params.tenantId.trim() === '') problems['tenantId'] = ['is required'];
    if (!Number.isInteger(params.pageIndex) || params.pageIndex < 0) problems['pageIndex'] = ['must be an integer of 0 or more'];
    if (!Number.isInteger(params.pageSize) || params.pageSize < 1 || params.pageSize > MAX_AUDIT_PAGE_SIZE) {
      problems['pageSize'] = [`must be an integer from 1 to ${MAX_AUDIT_PAGE_SIZE}`];
    }
    for (const field of EXACT_FILTERS) {
      const value = params[field];
      const allowed = ENUMERATED[field];
      if (value === undefined) continue;
      if (typeof value !== 'string') problems[field] = ['must be a string'];
      else if (allowed && !allowed.includes(value)) problems[field] = [`must be one of ${allowed.join(', ')}`];
    }
    if (typeof params.decisionId === 'string' && !UUID.test(params.decisionId)) problems['decisionId'] = ['must be a UUID'];
    const from = instant(params.from, 'from', problems);
    const to = instant(params.to, 'to', problems);
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);

    const query = this.dataSource.getRepository(DecisionAuditRecord).createQueryBuilder('a').where('a.tenantId = :tenantId', { tenantId: params.tenantId });
    for (const field of EXACT_FILTERS) {
      if (params[field] !== undefined) query.andWhere(`a.${field} = :${field}`, { [field]: params[field] });
    }
    if (from) query.andWhere('a.decidedAt >= :from', { from });
    if (to) query.andWhere('a.decidedAt < :to', { to });
    const [records, totalCount] = await query
      .orderBy('a.decidedAt', 'DESC')
      .addOrderBy('a.decisionId', 'DESC')
      .skip(params.pageIndex * params.pageSize)
      .take(params.pageSize)
      .getManyAndCount();

    return { items: records.map(toItem), pageIndex: params.pageIndex, pageSize: params.pageSize, totalCount };
  }
}

function toItem(record: DecisionAuditRecord): DecisionAuditItem {
  return { ...record, decidedAt: record.decidedAt.toISOString() };
}

import { DecisionAuditItem, DecisionOutcome, ValidationError } from '@lp/contracts';
import type { Page } from '@lp/platform/http';
import { DataSource } from 'typeorm';
import { DecisionAuditRecord } from './decision-audit-record.entity';

export const MAX_AUDIT_PAGE_SIZE = 100;
const OUTCOMES: readonly DecisionOutcome[] = ['Permit', 'Deny', 'NoMatchingPolicy'];

export interface DecisionAuditQueryParams {
  /** Always required: the query never reads across tenants. */
  tenantId: string;
  subject?: string;
  outcome?: DecisionOutcome;
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

/**
 * Reads the decision audit (RPC `authz.audit.query`), newest first, always inside one tenant. A
 * paging tie-break on the decision id keeps pages stable when decisions share an instant.
 * @throws ValidationError for a missing tenant, bad paging, an unknown outcome or bad dates.
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
    if (params.outcome !== undefined && !OUTCOMES.includes(params.outcome)) problems['outcome'] = [`must be one of ${OUTCOMES.join(', ')}`];
    if (params.subject !== undefined && typeof params.subject !== 'string') problems['subject'] = ['must be a string'];
    const from = instant(params.from, 'from', problems);
    const to = instant(params.to, 'to', problems);
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);

    const query = this.dataSource.getRepository(DecisionAuditRecord).createQueryBuilder('a').where('a.tenantId = :tenantId', { tenantId: params.tenantId });
    if (params.subject !== undefined) query.andWhere('a.subject = :subject', { subject: params.subject });
    if (params.outcome !== undefined) query.andWhere('a.outcome = :outcome', { outcome: params.outcome });
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

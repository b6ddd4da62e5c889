import { Injectable } from '@nestjs/common';
import { TrustedCaller } from '@lp/contracts';
import { DEPLOYMENT_ACTIONS, INSTANCE_STATUSES } from '../store';
import { DEFAULT_REPORT_ROWS, ListReportQuery, TrendReportQuery } from './dto/report-query.dto';
import {
  ApproversReportResponse,
  BottlenecksReportResponse,
  DeploymentsReportResponse,
  InstancesReportResponse,
  RejectsReportResponse,
  ReportPeriodResponse,
  TaskDurationReportResponse,
  TrendsReportResponse,
} from './dto/report.responses';
import { ReportTenantNotAllowedError } from './report-errors';
import { granularityOf, MAX_HOURLY_PERIOD_DAYS, resolvePeriod } from './report-period';
import { ReportScope, ReportsRepository } from './reports.repository';

/** The answer's period fields. */
const periodOf = (scope: Omit<ReportScope, 'limit'>): ReportPeriodResponse => ({
  from: scope.period.from.toISOString(),
  to: scope.period.to.toISOString(),
  definitionKey: scope.definitionKey ?? null,
});

/** `{ <value>: row[<value>] }` for each value: the per-status (per-action) counts the SQL answered as columns. */
const pick = (row: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, Number(row[k] ?? 0)]));

/**
 * The workflow reports (spec §4, docs/reports.md): checks the query (period, tenant), then asks the
 * repository's one aggregate and shapes its rows. The tenant is always the caller's.
 */
@Injectable()
export class ReportsService {
  constructor(private readonly repository: ReportsRepository) {}

  async instances(caller: TrustedCaller, query: ListReportQuery): Promise<InstancesReportResponse> {
    const scope = this.scope(caller, query);
    const [totals, ...rows] = await this.repository.instances(scope);
    const counts = (row: Record<string, unknown> | undefined) => ({ total: Number(row?.['total'] ?? 0), byStatus: pick(row ?? {}, INSTANCE_STATUSES) });
    return {
      ...periodOf(scope),
      totals: counts(totals),
      definitions: rows.map((row) => ({ definitionKey: row.definitionKey as string, ...counts(row) })),
    };
  }

  async taskDuration(caller: TrustedCaller, query: ListReportQuery): Promise<TaskDurationReportResponse> {
    const scope = this.scope(caller, query);
    return { ...periodOf(scope), nodes: await this.repository.taskDuration(scope) };
  }

  async approvers(caller: TrustedCaller, query: ListReportQuery): Promise<ApproversReportResponse> {
    const scope = this.scope(caller, query);
    const rows = await this.repository.approvers(scope);
    return {
      ...periodOf(scope),
      totalApprovers: rows[0]?.totalApprovers ?? 0,
      approvers: rows.map(({ totalApprovers: _total, ...row }) => row),
    };
  }

  async bottlenecks(caller: TrustedCaller, query: ListReportQuery): Promise<BottlenecksReportResponse> {
    const scope = this.scope(caller, query);
    const rows = await this.repository.bottlenecks(scope);
    return {
      ...periodOf(scope),
      // With no row the statement's now() is not read: the application clock says when the answer was made.
      asOf: (rows[0]?.asOf ?? new Date()).toISOString(),
      nodes: rows.map(({ asOf: _asOf, oldestPendingSince, ...row }) => ({ ...row, oldestPendingSince: oldestPendingSince?.toISOString() ?? null })),
    };
  }

  async rejects(caller: TrustedCaller, query: ListReportQuery): Promise<RejectsReportResponse> {
    const scope = this.scope(caller, query);
    const rows = await this.repository.rejects(scope);
    return {
      ...periodOf(scope),
      totalRejections: rows[0]?.totalRejections ?? 0,
      nodes: rows.map(({ totalRejections: _total, ...row }) => row),
    };
  }

  async trends(caller: TrustedCaller, query: TrendReportQuery): Promise<TrendsReportResponse> {
    this.checkTenant(caller, query);
    const granularity = granularityOf(query.Granularity);
    const period = resolvePeriod(query, { required: true, now: new Date(), maxDays: granularity === 'Hourly' ? MAX_HOURLY_PERIOD_DAYS : undefined });
    const scope = { tenantId: caller.tenantId, period, definitionKey: query.DefinitionKey };
    const buckets = await this.repository.trends(scope, granularity);
    return { ...periodOf(scope), granularity, buckets: buckets.map((b) => ({ ...b, start: b.start.toISOString() })) };
  }

  async deployments(caller: TrustedCaller, query: ListReportQuery): Promise<DeploymentsReportResponse> {
    const scope = this.scope(caller, query);
    const [totals, ...rows] = await this.repository.deployments(scope);
    const counts = (row: Record<string, unknown> | undefined) => ({ total: Number(row?.['total'] ?? 0), byAction: pick(row ?? {}, DEPLOYMENT_ACTIONS) });
    return {
      ...periodOf(scope),
      totals: counts(totals),
      definitions: rows.map((row) => ({ definitionKey: row.definitionKey as string, lastAt: (row.lastAt as Date).toISOString(), ...counts(row) })),
    };
  }

  /** The caller's tenant, the period (default: the last 30 days), the definition filter and the row limit of a list report. */
  private scope(caller: TrustedCaller, query: ListReportQuery): ReportScope {
    this.checkTenant(caller, query);
    return {
      tenantId: caller.tenantId,
      period: resolvePeriod(query, { required: false, now: new Date() }),
      definitionKey: query.DefinitionKey,
      limit: query.Limit ?? DEFAULT_REPORT_ROWS,
    };
  }

  /** A `TenantId` is accepted only as the caller's own (legacy clients send it); another one is refused, never read. */
  private checkTenant(caller: TrustedCaller, query: { TenantId?: string }): void {
    if (query.TenantId !== undefined && query.TenantId !== caller.tenantId) throw new ReportTenantNotAllowedError();
  }
}

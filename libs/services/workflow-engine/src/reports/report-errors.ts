import { DomainError } from '@lp/contracts';

/** `From` / `To` missing (trends), not an ISO 8601 date or date-time, or From later than To (spec §7). */
export class ReportPeriodInvalidError extends DomainError {
  constructor(detail: string) {
    super('Workflow.Report.PeriodInvalid', 400, detail);
  }
}

/** The period spans more than a report reads in one request (docs/reports.md, Limits). */
export class ReportPeriodTooLongError extends DomainError {
  constructor(detail: string) {
    super('Workflow.Report.PeriodTooLong', 400, detail);
  }
}

/** A `TenantId` in the query that is not the caller's: reports read the caller's tenant only (spec §2). */
export class ReportTenantNotAllowedError extends DomainError {
  constructor() {
    super('Workflow.Report.TenantNotAllowed', 400, 'Reports read the caller’s tenant only: TenantId, when given, must be the tenant of the token.');
  }
}

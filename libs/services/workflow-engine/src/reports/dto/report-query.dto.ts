import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { DEFINITION_KEY_PATTERN } from '@lp/contracts';
import { GRANULARITIES } from '../report-period';

/** Rows a list report answers at most (its `Limit`), and by default. */
export const MAX_REPORT_ROWS = 500;
export const DEFAULT_REPORT_ROWS = 100;

/**
 * The report query, sent as the JSON body of `QUERY /reports/<name>` or `POST /reports/<name>/_query`.
 * Field names are the spec's (§2, trend report query: `From`, `To`, `TenantId`, `DefinitionKey`,
 * `Granularity`). `From` / `To` are checked by `resolvePeriod` (not here) so that every period
 * problem answers the report's own code, Workflow.Report.PeriodInvalid, not Validation.Failed.
 */
const periodFields = {
  From: z.unknown().optional(),
  To: z.unknown().optional(),
  DefinitionKey: z.string().max(64).regex(DEFINITION_KEY_PATTERN, 'is not a definition key').optional(),
  TenantId: z.string().max(64).optional(),
};

const withDefault = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject(shape)
    .optional()
    .transform((body) => body ?? ({} as z.output<z.ZodObject<T>>));

export const listReportQuerySchema = withDefault({ ...periodFields, Limit: z.number().int().min(1).max(MAX_REPORT_ROWS).optional() });
export type ListReportQuery = z.output<typeof listReportQuerySchema>;

export const trendReportQuerySchema = withDefault({ ...periodFields, Granularity: z.unknown().optional() });
export type TrendReportQuery = z.output<typeof trendReportQuerySchema>;

const FROM = 'Start of the period (inclusive): an ISO 8601 date or date-time; without an offset it is UTC.';
const TO = 'End of the period (exclusive), as `From`; at most 366 days after `From`.';

/** The fields every report query shares. */
class ReportFilterDto {
  @ApiPropertyOptional({ pattern: DEFINITION_KEY_PATTERN.source, maxLength: 64, description: 'Only this definition key.' })
  DefinitionKey?: string;

  @ApiPropertyOptional({
    maxLength: 64,
    description: 'Accepted only when it is the caller’s own tenant (then it changes nothing); any other value is 400 Workflow.Report.TenantNotAllowed.',
  })
  TenantId?: string;
}

export class ListReportQueryDto extends ReportFilterDto {
  @ApiPropertyOptional({ description: `${FROM} Default: \`To\` minus 30 days.`, example: '2026-03-01T00:00:00Z' })
  From?: string;

  @ApiPropertyOptional({ description: `${TO} Default: now.`, example: '2026-04-01T00:00:00Z' })
  To?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_REPORT_ROWS, default: DEFAULT_REPORT_ROWS, description: 'How many rows the report answers at most.' })
  Limit?: number;
}

export class TrendReportQueryDto extends ReportFilterDto {
  @ApiProperty({ description: `${FROM} Missing, unparseable or later than To: 400 Workflow.Report.PeriodInvalid.`, example: '2026-03-01T00:00:00Z' })
  From!: string;

  @ApiProperty({ description: `${TO} Hourly: at most 31 days.`, example: '2026-04-01T00:00:00Z' })
  To!: string;

  @ApiPropertyOptional({ enum: GRANULARITIES, default: 'Daily', description: 'Bucket size (UTC; weeks start on Monday). Any other value is Daily.' })
  Granularity?: string;
}

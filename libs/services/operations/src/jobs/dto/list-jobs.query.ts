import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { OptionalBoolean, PageQuery } from '@lp/platform/http';
import { JOB_EXECUTION_STATUSES, JobExecutionStatus } from '../../store';

/** `none`: the job has never run (no execution row). */
export type LastRunStatusFilter = JobExecutionStatus | 'none';
export const LAST_RUN_STATUS_FILTERS: readonly LastRunStatusFilter[] = [...JOB_EXECUTION_STATUSES, 'none'];

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Query of `GET /api/operations/jobs`: the platform's paging and filters, all of which must hold. */
export class ListJobsQuery extends PageQuery {
  @ApiPropertyOptional({ minLength: 1, maxLength: 160, description: 'Case-insensitive: only jobs whose name or description contains this text (trimmed).' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @Length(1, 160)
  search?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'policy-management', description: 'Only the jobs of this owning service (`source`), exactly.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  source?: string;

  @OptionalBoolean('true: only jobs the scheduler runs; false: only stopped ones.')
  enabled?: boolean;

  @ApiPropertyOptional({
    enum: LAST_RUN_STATUS_FILTERS,
    description: 'Only jobs whose latest run (`lastRun.status`) has this status; `none`: jobs that never ran.',
  })
  @IsOptional()
  @IsIn(LAST_RUN_STATUS_FILTERS, { message: `lastRunStatus must be one of ${LAST_RUN_STATUS_FILTERS.join(', ')}` })
  lastRunStatus?: LastRunStatusFilter;
}

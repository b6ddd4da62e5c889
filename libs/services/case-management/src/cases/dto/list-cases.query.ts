import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { CASE_STATUSES, CASE_TYPES, type CaseStatus, type CaseType } from '@lp/contracts';
import { PageQuery } from '@lp/platform/http';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Query of GET /api/cases: the platform's paging, and filters that narrow within the caller's DataScope. */
export class ListCasesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CASE_STATUSES })
  @IsOptional()
  @IsIn(CASE_STATUSES)
  status?: CaseStatus;

  @ApiPropertyOptional({ enum: CASE_TYPES })
  @IsOptional()
  @IsIn(CASE_TYPES)
  caseType?: CaseType;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'Case-insensitive: a matter number prefix (`LIT-2026-0001`) or part of the title.' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  search?: string;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { DecisionOutcome } from '@lp/contracts';
import { PageQuery } from '@lp/platform/http';

export const DECISION_OUTCOMES: readonly DecisionOutcome[] = ['Permit', 'Deny', 'NoMatchingPolicy'];

/** Filters of `GET /permission-audit/decisions`; `from` inclusive, `to` exclusive. */
export class DecisionAuditQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Subject the decision was made for' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  subject?: string;

  @ApiPropertyOptional({ enum: DECISION_OUTCOMES })
  @IsOptional()
  @IsIn(DECISION_OUTCOMES, { message: `outcome must be one of ${DECISION_OUTCOMES.join(', ')}` })
  outcome?: DecisionOutcome;

  @ApiPropertyOptional({ format: 'date-time', description: 'Inclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Exclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

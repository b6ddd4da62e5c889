import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { DecisionOutcome } from '@lp/contracts';
import { OptionalInstant, PageQuery } from '@lp/platform/http';

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

  @OptionalInstant('Inclusive')
  from?: string;

  @OptionalInstant('Exclusive')
  to?: string;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalInstant, PageQuery } from '@lp/platform/http';

/** Filters of `GET /permission-audit/changes` (exact matches); `from` inclusive, `to` exclusive. */
export class PolicyChangeQuery extends PageQuery {
  @ApiPropertyOptional({ example: 'role.created' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  change?: string;

  @ApiPropertyOptional({ description: 'Acting subject (the delegate for delegated callers)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  actor?: string;

  @ApiPropertyOptional({ example: 'role' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(60)
  targetType?: string;

  @OptionalInstant('Inclusive')
  from?: string;

  @OptionalInstant('Exclusive')
  to?: string;
}

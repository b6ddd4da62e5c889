import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQuery } from '@lp/platform/http';

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

  @ApiPropertyOptional({ format: 'date-time', description: 'Inclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Exclusive' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

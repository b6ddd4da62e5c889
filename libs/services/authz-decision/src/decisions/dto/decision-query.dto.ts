import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsEnum, IsNumber, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AUTHORIZATION_ACTIONS, AuthorizationAction } from '@lp/contracts';

const SEGMENT = /^[a-z][a-z0-9-]*$/;
export const MAX_DECISION_BATCH = 100;

/** The resource a caller asks about (spec §2 descriptor, without the tenant: that is the token's). */
export class DecisionResourceDto {
  @ApiProperty({ example: 'cases' })
  @IsString()
  @Matches(SEGMENT, { message: 'module must be a lower-case code like "cases"' })
  @MaxLength(64)
  module: string;

  @ApiProperty({ example: 'case' })
  @IsString()
  @Matches(SEGMENT, { message: 'resourceType must be a lower-case code like "case"' })
  @MaxLength(64)
  resourceType: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) resourceId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) status?: string;
  @ApiPropertyOptional() @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) amount?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) sensitivity?: string;
}

export class DecisionQueryDto {
  @ApiProperty({ type: DecisionResourceDto })
  @ValidateNested()
  @Type(() => DecisionResourceDto)
  resource: DecisionResourceDto;

  @ApiProperty({ enum: AUTHORIZATION_ACTIONS })
  @IsEnum(AuthorizationAction, { message: `action must be one of ${AUTHORIZATION_ACTIONS.join(', ')}` })
  action: AuthorizationAction;
}

export class DecisionBatchDto {
  @ApiProperty({ type: [DecisionQueryDto], maxItems: MAX_DECISION_BATCH })
  @ValidateNested({ each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DECISION_BATCH, { message: `a batch holds at most ${MAX_DECISION_BATCH} items` })
  @Type(() => DecisionQueryDto)
  items: DecisionQueryDto[];
}

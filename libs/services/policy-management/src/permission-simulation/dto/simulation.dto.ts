import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, SimulationLimits } from '@lp/contracts';
import { OptionalInstant } from '@lp/platform/http';
import { PolicyOverlayDto } from './policy-overlay.dto';

const SEGMENT = /^[a-z][a-z0-9-]*$/;

export class SimulatedResourceDto {
  @ApiProperty({ example: 'authorization' })
  @IsString()
  @Matches(SEGMENT, { message: 'module must be a lower-case code like "cases"' })
  @MaxLength(64)
  module: string;

  @ApiProperty({ example: 'role' })
  @IsString()
  @Matches(SEGMENT, { message: 'resourceType must be a lower-case code like "case"' })
  @MaxLength(64)
  resourceType: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) resourceId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) status?: string;
  @ApiPropertyOptional() @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) amount?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) sensitivity?: string;
  @ApiPropertyOptional({ description: 'Owner subject (a simulation states it; a real request loads it server-side)' })
  @IsOptional() @IsString() @MaxLength(255) owner?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) officeId?: string;
}

export class SimulatedRequestDto {
  @ApiProperty({ type: SimulatedResourceDto })
  @ValidateNested()
  @Type(() => SimulatedResourceDto)
  resource: SimulatedResourceDto;

  @ApiProperty({ enum: AUTHORIZATION_ACTIONS })
  @IsEnum(AuthorizationAction, { message: `action must be one of ${AUTHORIZATION_ACTIONS.join(', ')}` })
  action: AuthorizationAction;
}

export class EvaluateSimulationDto {
  @ApiProperty({ description: "A user subject of the caller's tenant" })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  subject: string;

  @ApiProperty({ type: SimulatedRequestDto })
  @ValidateNested()
  @Type(() => SimulatedRequestDto)
  request: SimulatedRequestDto;

  @ApiPropertyOptional({ type: PolicyOverlayDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PolicyOverlayDto)
  overlay?: PolicyOverlayDto;
}

export class ReplaySimulationDto {
  @ApiPropertyOptional({ type: PolicyOverlayDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PolicyOverlayDto)
  overlay?: PolicyOverlayDto;

  @ApiPropertyOptional({ minimum: 1, maximum: SimulationLimits.maxReplaySample, default: SimulationLimits.defaultReplaySample })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SimulationLimits.maxReplaySample)
  sample?: number;

  @OptionalInstant('Inclusive')
  from?: string;

  @OptionalInstant('Exclusive')
  to?: string;
}

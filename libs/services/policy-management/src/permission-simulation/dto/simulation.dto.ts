import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsEnum, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, SimulationLimits } from '@lp/contracts';
import { OptionalInstant } from '@lp/platform/http';
import { ResourceDescriptorDto } from '@lp/authz-guard';
import { PolicyOverlayDto } from './policy-overlay.dto';

/** A decision's resource with the facts a real request would load server-side, stated by the simulation. */
export class SimulatedResourceDto extends ResourceDescriptorDto {
  @ApiPropertyOptional({ description: 'Owner subject (a simulation states it; a real request loads it server-side)' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  owner?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) officeId?: string;
}

export class SimulatedRequestDto {
  @ApiProperty({ type: SimulatedResourceDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SimulatedResourceDto)
  resource!: SimulatedResourceDto;

  @ApiProperty({ enum: AUTHORIZATION_ACTIONS })
  @IsEnum(AuthorizationAction, { message: `action must be one of ${AUTHORIZATION_ACTIONS.join(', ')}` })
  action!: AuthorizationAction;
}

export class EvaluateSimulationDto {
  @ApiProperty({ description: "A user subject of the caller's tenant" })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  subject!: string;

  @ApiProperty({ type: SimulatedRequestDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SimulatedRequestDto)
  request!: SimulatedRequestDto;

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

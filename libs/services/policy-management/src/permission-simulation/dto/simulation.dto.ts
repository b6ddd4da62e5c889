import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, CALLER_KINDS, CallerKind, SimulatedCaller, SimulationLimits } from '@lp/contracts';
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

/** Who is asked about, as that caller's token would say; the simulator refuses fields the kind has not. */
export class EvaluateSimulationDto implements SimulatedCaller {
  @ApiProperty({
    description: "A subject of the caller's tenant: the user, the application's client id (callerKind application), or the user acted for (delegated)",
  })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  subject!: string;

  @ApiPropertyOptional({ enum: CALLER_KINDS, default: 'user', description: 'The kind of caller the decision is for' })
  @IsOptional()
  @IsIn(CALLER_KINDS)
  callerKind?: CallerKind;

  @ApiPropertyOptional({ description: "Application or delegated only: the token's client id (an application's defaults to its subject)" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  clientId?: string;

  @ApiPropertyOptional({ type: [String], maxItems: SimulationLimits.maxScopes, description: "Application only: its token's scopes, which AppScope checks" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SimulationLimits.maxScopes)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  scopes?: string[];

  @ApiPropertyOptional({ description: 'Delegated only, and required there: the acting subject (`act.sub`)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  actor?: string;

  @ApiPropertyOptional({ description: 'Delegated only: the delegation grant the token names (any active grant to the actor counts without it)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  grantId?: string;

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

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, SimulationLimits } from '@lp/contracts';

const MAX = SimulationLimits.maxOverlayEntries;

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** An ABAC condition value: a string, number or boolean, or a list of them (for In / NotIn). */
function IsAbacValue(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAbacValue',
      validator: {
        validate: (v: unknown) => isScalar(v) || (Array.isArray(v) && v.length <= 100 && v.every(isScalar)),
        defaultMessage: () => 'value must be a string, number or boolean, or a list of at most 100 of them',
      },
    },
    options,
  );
}

export class SimulatedRoleBindingDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(255) subject!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(100) roleName!: string;
}

export class SimulatedRolePermissionDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(100) roleName!: string;
  @ApiProperty({ example: 'cases.case.view' }) @IsString() @MinLength(1) @MaxLength(200) permissionCode!: string;
}

export class SimulatedAbacConditionDto {
  @ApiProperty({ description: 'AbacField integer (resource 1-5, caller 10-14)' }) @IsInt() @Min(1) field!: number;
  @ApiProperty({ description: 'AbacOperator integer (Equals=1 ... NotExists=10)' }) @IsInt() @Min(1) operator!: number;
  @ApiPropertyOptional({ description: 'string, number, boolean or a list of them' }) @IsOptional() @IsAbacValue() value?:
    string | number | boolean | Array<string | number | boolean>;
}

export class SimulatedAbacRuleDto {
  @ApiPropertyOptional({ description: 'Defaults to simulated-{n}' }) @IsOptional() @IsString() @MinLength(1) @MaxLength(100) id?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @ApiProperty() @IsInt() priority!: number;
  @ApiProperty({ enum: [1, 2], description: '1 Allow, 2 Deny' }) @IsIn([1, 2], { message: 'verdict must be 1 (Allow) or 2 (Deny)' }) verdict!: number;

  @ApiProperty({ type: [SimulatedAbacConditionDto] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedAbacConditionDto)
  conditions!: SimulatedAbacConditionDto[];

  @ApiPropertyOptional({ enum: AUTHORIZATION_ACTIONS, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsEnum(AuthorizationAction, { each: true, message: `actions must be of ${AUTHORIZATION_ACTIONS.join(', ')}` })
  actions?: AuthorizationAction[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(64, { each: true })
  modules?: string[];
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(64, { each: true })
  resourceTypes?: string[];
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(200, { each: true })
  obligations?: string[];
}

export class SimulatedAbacChangesDto {
  @ApiPropertyOptional({ type: [SimulatedAbacRuleDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedAbacRuleDto)
  add?: SimulatedAbacRuleDto[];

  @ApiPropertyOptional({ type: [String], description: 'Ids of stored rules of the tenant to leave out' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(100, { each: true })
  remove?: string[];
}

export class SimulatedFeatureDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(100) code!: string;
  @ApiProperty() @IsBoolean() enabled!: boolean;
}

/** Proposed changes applied on top of the stored policy for a simulation; nothing is written. */
export class PolicyOverlayDto {
  @ApiPropertyOptional({ type: [SimulatedRoleBindingDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedRoleBindingDto)
  addRoleBindings?: SimulatedRoleBindingDto[];

  @ApiPropertyOptional({ type: [SimulatedRoleBindingDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedRoleBindingDto)
  removeRoleBindings?: SimulatedRoleBindingDto[];

  @ApiPropertyOptional({ type: [SimulatedRolePermissionDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedRolePermissionDto)
  addRolePermissions?: SimulatedRolePermissionDto[];

  @ApiPropertyOptional({ type: [SimulatedRolePermissionDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedRolePermissionDto)
  removeRolePermissions?: SimulatedRolePermissionDto[];

  @ApiPropertyOptional({ type: SimulatedAbacChangesDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SimulatedAbacChangesDto)
  abacRules?: SimulatedAbacChangesDto;

  @ApiPropertyOptional({ type: [SimulatedFeatureDto], description: 'Tenant overrides of defined features' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SimulatedFeatureDto)
  features?: SimulatedFeatureDto[];
}

import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateNested,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  ABAC_FIELD_NAMES,
  ABAC_OPERATOR_NAMES,
  ABAC_VERDICT_NAMES,
  AbacFieldName,
  AbacOperatorName,
  AbacValue,
  AbacVerdictName,
  AuthorizationAction,
} from '@lp/contracts';
import { abacValueProblem } from '../abac-rule.mapping';

/** Limits of a rule (spec §8 leaves them open; see docs/abac-rules.md). */
export const ABAC_RULE_LIMITS = {
  name: 200,
  description: 1000,
  conditions: 20,
  filterItems: 20,
  segment: 100,
  obligations: 20,
  obligation: 200,
  listValueItems: 100,
  stringValue: 500,
  priorityMax: 1_000_000,
} as const;

const L = ABAC_RULE_LIMITS;
const SEGMENT = /^[a-z][a-z0-9-]*$/;
const NOT_BLANK = /\S/;

/** Checks `value` against the condition's field type and operator (only once both are known). */
@ValidatorConstraint({ name: 'abacConditionValue' })
class AbacConditionValueConstraint implements ValidatorConstraintInterface {
  private problem(args: ValidationArguments): string | undefined {
    const condition = args.object as AbacConditionDto;
    return abacValueProblem(condition.field, condition.operator, condition.value, { listItems: L.listValueItems, stringLength: L.stringValue });
  }
  validate(_value: unknown, args: ValidationArguments): boolean {
    return this.problem(args) === undefined;
  }
  defaultMessage(args: ValidationArguments): string {
    return this.problem(args) ?? 'value is not valid';
  }
}

export class AbacConditionDto {
  @ApiProperty({ enum: ABAC_FIELD_NAMES, description: 'The fact tested (see docs/abac-rules.md for each type).' })
  @IsIn(ABAC_FIELD_NAMES, { message: `field must be one of: ${ABAC_FIELD_NAMES.join(', ')}` })
  field!: AbacFieldName;

  @ApiProperty({ enum: ABAC_OPERATOR_NAMES })
  @IsIn(ABAC_OPERATOR_NAMES, { message: `operator must be one of: ${ABAC_OPERATOR_NAMES.join(', ')}` })
  operator!: AbacOperatorName;

  @ApiPropertyOptional({
    description: "A value of the field's type; an array of them for In/NotIn; absent for Exists/NotExists.",
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } },
    ],
  })
  @Validate(AbacConditionValueConstraint)
  value?: AbacValue;
}

/** An optional filter of distinct lower-case codes (modules, resource types): the same rules and messages for each. */
function LowerCaseCodeFilter(property: string, description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], description }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(L.filterItems),
    ArrayUnique(),
    IsString({ each: true }),
    MaxLength(L.segment, { each: true }),
    Matches(SEGMENT, { each: true, message: `each value in ${property} must be a lower-case code (a-z, 0-9, -)` }),
  );
}

/** Body of POST /abac-rules and PUT /abac-rules/{ruleId} (PUT replaces the whole rule). */
export class SaveAbacRuleDto {
  @ApiProperty({ maxLength: L.name })
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(L.name)
  name!: string;

  @ApiPropertyOptional({ maxLength: L.description, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(L.description)
  description?: string | null;

  @ApiProperty({ minimum: 0, maximum: L.priorityMax, description: 'Ascending: 1 is tried before 2; ties by id. The first matching rule decides.' })
  @IsInt()
  @Min(0)
  @Max(L.priorityMax)
  priority!: number;

  @ApiProperty({ enum: ABAC_VERDICT_NAMES })
  @IsIn(ABAC_VERDICT_NAMES, { message: `verdict must be one of: ${ABAC_VERDICT_NAMES.join(', ')}` })
  verdict!: AbacVerdictName;

  @ApiPropertyOptional({ type: [AbacConditionDto], maxItems: L.conditions, description: 'All must hold; none: the rule matches every request it applies to.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(L.conditions)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => AbacConditionDto)
  conditions?: AbacConditionDto[];

  @ApiPropertyOptional({ enum: AuthorizationAction, isArray: true, description: 'Action filter; empty or absent: any action.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(L.filterItems)
  @ArrayUnique()
  @IsEnum(AuthorizationAction, { each: true, message: `each value in actions must be one of: ${Object.values(AuthorizationAction).join(', ')}` })
  actions?: AuthorizationAction[];

  @LowerCaseCodeFilter('modules', 'Module filter (lower-case module codes); empty or absent: any module.')
  modules?: string[];

  @LowerCaseCodeFilter('resourceTypes', 'Resource-type filter (lower-case resource names); empty or absent: any.')
  resourceTypes?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Obligations the caller must honour when this rule allows.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(L.obligations)
  @IsString({ each: true })
  @MaxLength(L.obligation, { each: true })
  @Matches(NOT_BLANK, { each: true, message: 'each value in obligations must not be blank' })
  obligations?: string[];

  @ApiPropertyOptional({ default: true, description: 'Disabled rules are kept but not evaluated.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

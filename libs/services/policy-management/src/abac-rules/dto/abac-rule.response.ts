import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
import { PageMeta } from '@lp/platform/http';
import { AbacRuleEntity } from '../../policy-store';
import { namedCondition, namedVerdict } from '../abac-rule.mapping';

export class AbacConditionResponse {
  @ApiProperty({ enum: ABAC_FIELD_NAMES }) field!: AbacFieldName | number;
  @ApiProperty({ enum: ABAC_OPERATOR_NAMES }) operator!: AbacOperatorName | number;
  @ApiPropertyOptional({ description: 'Absent for Exists/NotExists.' }) value?: AbacValue;
}

export class AbacRuleResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description!: string | null;
  @ApiProperty() priority!: number;
  @ApiProperty({ enum: ABAC_VERDICT_NAMES }) verdict!: AbacVerdictName | number;
  @ApiProperty({ type: [AbacConditionResponse] }) conditions!: AbacConditionResponse[];
  @ApiProperty({ enum: AuthorizationAction, isArray: true }) actions!: string[];
  @ApiProperty({ type: [String] }) modules!: string[];
  @ApiProperty({ type: [String] }) resourceTypes!: string[];
  @ApiProperty({ type: [String] }) obligations!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;

  static of(rule: AbacRuleEntity): AbacRuleResponse {
    return {
      id: rule.id,
      name: rule.name,
      description: rule.description,
      priority: rule.priority,
      verdict: namedVerdict(rule.verdict),
      conditions: (Array.isArray(rule.conditions) ? rule.conditions : []).map(namedCondition),
      actions: rule.actions,
      modules: rule.modules,
      resourceTypes: rule.resourceTypes,
      obligations: rule.obligations,
      enabled: rule.enabled,
      createdAt: rule.createdAt.toISOString(),
      updatedAt: rule.updatedAt.toISOString(),
    };
  }
}

export class AbacRulePage extends PageMeta {
  @ApiProperty({ type: [AbacRuleResponse] }) items!: AbacRuleResponse[];
}

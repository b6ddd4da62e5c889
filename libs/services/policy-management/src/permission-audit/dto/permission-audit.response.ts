import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CALLER_KINDS, DECISION_REASON_CODES } from '@lp/contracts';
import { PageMeta } from '@lp/platform/http';
import { PolicyChangeLogEntity } from '../../policy-store/entities/policy-change-log.entity';
import { DECISION_OUTCOMES } from './decision-audit.query';

export class AuditedEvaluationResponse {
  @ApiProperty({ enum: ['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature'] }) evaluator!: string;
  @ApiProperty({ enum: ['Allow', 'Deny', 'Neutral'] }) verdict!: string;
  @ApiProperty() reason!: string;
}

/** One audited decision, as authz-decision keeps it. */
export class DecisionAuditItemResponse {
  @ApiProperty({ format: 'uuid' }) decisionId!: string;
  @ApiProperty({ format: 'date-time' }) decidedAt!: string;
  @ApiProperty() tenantId!: string;
  @ApiProperty({ enum: CALLER_KINDS }) callerKind!: string;
  @ApiProperty() subject!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) clientId!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) actor!: string | null;
  @ApiProperty() action!: string;
  @ApiProperty() module!: string;
  @ApiProperty() resourceType!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) resourceId!: string | null;
  @ApiProperty({ type: Object, description: 'status, amount, sensitivity, owner, officeId as sent' }) resourceFacts!: Record<string, unknown>;
  @ApiProperty({ enum: DECISION_OUTCOMES }) outcome!: string;
  @ApiProperty({
    enum: DECISION_REASON_CODES,
    nullable: true,
    type: String,
    description:
      'The merge rule that decided: AnyAllow (an evaluator allowed), AnyDeny (one denied: see evaluations), AllNeutral (nothing applied), or a refusal over them (see reason). Null on records older than the field.',
  })
  reasonCode!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Why the merge refused when no evaluator denied (`DelegationNotCovered: …`)' }) reason!:
    string | null;
  @ApiProperty({ type: [AuditedEvaluationResponse] }) evaluations!: AuditedEvaluationResponse[];
  @ApiProperty() cached!: boolean;
  @ApiProperty() latencyMs!: number;
  @ApiPropertyOptional({ nullable: true, type: String }) correlationId!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Set when it failed closed for an infrastructure reason' }) failure!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Object, description: 'The revision counters it was decided under' }) revisions!: Record<string, number> | null;
}

export class DecisionAuditPage extends PageMeta {
  @ApiProperty({ type: [DecisionAuditItemResponse] }) items!: DecisionAuditItemResponse[];
}

export class PolicyChangeResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'null: a global change (feature default) shown to every tenant' }) tenantId!: string | null;
  @ApiProperty() actor!: string;
  @ApiProperty({ enum: ['user', 'application', 'delegated'] }) actorKind!: string;
  @ApiProperty({ example: 'role.created' }) change!: string;
  @ApiProperty() targetType!: string;
  @ApiProperty() targetId!: string;
  @ApiPropertyOptional({ nullable: true }) before: unknown;
  @ApiPropertyOptional({ nullable: true }) after: unknown;
  @ApiPropertyOptional({ nullable: true, type: String }) correlationId!: string | null;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;

  static of(row: PolicyChangeLogEntity): PolicyChangeResponse {
    return {
      id: row.id,
      tenantId: row.tenantId,
      actor: row.actor,
      actorKind: row.actorKind,
      change: row.change,
      targetType: row.targetType,
      targetId: row.targetId,
      before: row.before ?? null,
      after: row.after ?? null,
      correlationId: row.correlationId,
      occurredAt: row.occurredAt.toISOString(),
    };
  }
}

export class PolicyChangePage extends PageMeta {
  @ApiProperty({ type: [PolicyChangeResponse] }) items!: PolicyChangeResponse[];
}

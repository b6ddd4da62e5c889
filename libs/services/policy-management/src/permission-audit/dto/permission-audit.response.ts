import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { CALLER_KINDS, DECISION_REASON_CODES } from '@lp/contracts';
import { PageMeta } from '@lp/platform/http';
import { PolicyChangeLogEntity } from '../../policy-store/entities/policy-change-log.entity';
import { DECISION_OUTCOMES } from './decision-audit.query';

export class AuditedEvaluationResponse {
  @ApiProperty({ enum: ['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature'] }) evaluator!: string;
  @ApiProperty({ enum: ['Allow', 'Deny', 'Neutral'] }) verdict!: string;
  @ApiProperty() reason!: string;
}

/**
 * The revision counters a decision was read under (authz-decision's `DecisionCacheRevisions`): each
 * moves when what it covers changes, so two decisions under the same counters saw the same policy.
 * Referenced from `revisions` through `anyOf` (a 3.0 `nullable` beside the `allOf` that
 * @nestjs/swagger writes for a nullable class would not let null through), so the controller lists
 * it with `@ApiExtraModels`.
 */
export class DecisionRevisionsResponse {
  @ApiProperty({ type: 'integer', description: "The tenant's roles, grants, rules and settings." }) tenantPolicy!: number;
  @ApiProperty({ type: 'integer', description: "The subject's roles and grants." }) subject!: number;
  @ApiProperty({ type: 'integer', description: 'Feature defaults of the platform.' }) featureGlobal!: number;
  @ApiProperty({ type: 'integer', description: "The tenant's feature settings." }) featureTenant!: number;
  @ApiProperty({ type: 'integer', description: "The subject's relations (ReBAC)." }) rebac!: number;
}

/** One audited decision, as authz-decision keeps it. Every field is always present (null when it does not apply). */
export class DecisionAuditItemResponse {
  @ApiProperty({ format: 'uuid' }) decisionId!: string;
  @ApiProperty({ format: 'date-time' }) decidedAt!: string;
  @ApiProperty() tenantId!: string;
  @ApiProperty({ enum: CALLER_KINDS }) callerKind!: string;
  @ApiProperty() subject!: string;
  @ApiProperty({ nullable: true, type: String }) clientId!: string | null;
  @ApiProperty({ nullable: true, type: String }) actor!: string | null;
  @ApiProperty() action!: string;
  @ApiProperty() module!: string;
  @ApiProperty() resourceType!: string;
  @ApiProperty({ nullable: true, type: String }) resourceId!: string | null;
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
  @ApiProperty({ nullable: true, type: String, description: 'Why the merge refused when no evaluator denied (`DelegationNotCovered: …`)' }) reason!:
    string | null;
  @ApiProperty({ type: [AuditedEvaluationResponse] }) evaluations!: AuditedEvaluationResponse[];
  @ApiProperty() cached!: boolean;
  @ApiProperty() latencyMs!: number;
  @ApiProperty({ nullable: true, type: String }) correlationId!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Set when it failed closed for an infrastructure reason' }) failure!: string | null;
  /** Not `{ type: DecisionRevisionsResponse, nullable: true }`: see DecisionRevisionsResponse. */
  @ApiProperty({
    anyOf: [{ $ref: getSchemaPath(DecisionRevisionsResponse) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'The revision counters it was decided under; null when the decision recorded none.',
  })
  revisions!: DecisionRevisionsResponse | null;
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

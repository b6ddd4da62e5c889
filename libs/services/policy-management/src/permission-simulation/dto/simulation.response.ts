import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DECISION_OUTCOMES } from '../../permission-audit/dto/decision-audit.query';

export class SimulatedEvaluationResponse {
  @ApiProperty({ enum: ['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature'] }) evaluator!: string;
  @ApiProperty({ enum: ['Allow', 'Deny', 'Neutral'] }) verdict!: string;
  @ApiProperty() reason!: string;
  @ApiPropertyOptional({ type: [String] }) obligations?: string[];
}

export class SimulatedDecisionResponse {
  @ApiProperty({ enum: DECISION_OUTCOMES }) outcome!: string;
  @ApiProperty() permitted!: boolean;
  @ApiProperty({ type: [SimulatedEvaluationResponse] }) evaluations!: SimulatedEvaluationResponse[];
  @ApiProperty({ type: [String] }) obligations!: string[];
  @ApiProperty({ type: Object, description: 'DataScope: kind tenant | office | own | instances | none, with its tenantId' }) dataScope!: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional() failure?: string;
}

export class ReplayFlipResponse {
  @ApiProperty({ format: 'uuid' }) decisionId!: string;
  @ApiProperty({ format: 'date-time' }) decidedAt!: string;
  @ApiProperty({ enum: ['user', 'application', 'delegated'] }) callerKind!: string;
  @ApiProperty() subject!: string;
  @ApiPropertyOptional() actor?: string;
  @ApiPropertyOptional() clientId?: string;
  @ApiProperty() action!: string;
  @ApiProperty({ type: Object }) resource!: Record<string, unknown>;
  @ApiProperty({ enum: DECISION_OUTCOMES, description: 'As audited at the time' }) recorded!: string;
  @ApiProperty({ enum: DECISION_OUTCOMES, description: 'Re-decided now without the overlay' }) before!: string;
  @ApiProperty({ enum: DECISION_OUTCOMES, description: 'Re-decided now with the overlay' }) after!: string;
}

export class ReplayResultResponse {
  @ApiProperty() replayed!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty({ type: [ReplayFlipResponse] }) flipped!: ReplayFlipResponse[];
}

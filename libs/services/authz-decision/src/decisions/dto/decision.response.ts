import { ApiProperty } from '@nestjs/swagger';
import { DataScope, DecisionOutcome, DecisionResult, EvaluatorResult } from '@lp/contracts';

export class DecisionReasonDto {
  @ApiProperty({ enum: ['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature'] }) evaluator!: EvaluatorResult['evaluator'];
  @ApiProperty({ enum: ['Allow', 'Deny', 'Neutral'] }) verdict!: EvaluatorResult['verdict'];
  @ApiProperty() reason!: string;
}

/** What a caller learns about its own question: a Deny is a 200 here, the question was answered. */
export class DecisionResponse {
  @ApiProperty({ enum: ['Permit', 'Deny', 'NoMatchingPolicy'] }) outcome!: DecisionOutcome;
  @ApiProperty({ format: 'uuid' }) decisionId!: string;
  @ApiProperty({ type: [DecisionReasonDto] }) reasons!: DecisionReasonDto[];
  @ApiProperty({ description: 'tenant | office | own | instances | none, always with the tenant' }) dataScope!: DataScope;
  @ApiProperty({
    required: false,
    description: 'Why the answer is a Deny although no evaluator denied: `DelegationNotCovered: …` or `GrantExpiredInFlight: …`',
  })
  refusal?: string;

  static of(result: DecisionResult): DecisionResponse {
    return {
      outcome: result.outcome,
      decisionId: result.decisionId,
      reasons: result.evaluations.map(({ evaluator, verdict, reason }) => ({ evaluator, verdict, reason })),
      dataScope: result.dataScope,
      ...(result.reason ? { refusal: result.reason } : {}),
    };
  }
}

export class DecisionBatchResponse {
  @ApiProperty({ type: [DecisionResponse] }) items!: DecisionResponse[];
}

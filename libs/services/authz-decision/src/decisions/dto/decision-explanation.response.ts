import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, CallerKind, DataScope, DecisionOutcome, EvaluatorResult, TrustedCaller } from '@lp/contracts';
import { ResourceDescriptorDto } from '@lp/authz-guard';
import { DataScopeRule, DecisionExplanation, EvaluatorTrace, MergeRule } from '../../engine';
import { DecisionResponse } from './decision.response';

const DATA_SCOPE = 'tenant | office | own | instances | none, always with the tenant';

/** Who asked, as the token says: the caller's own facts, never the token or the claims digest. */
export class ExplainedCallerDto {
  @ApiProperty({ enum: ['user', 'application', 'delegated'] }) kind!: CallerKind;
  @ApiProperty() subject!: string;
  @ApiProperty() tenantId!: string;
  @ApiPropertyOptional() clientId?: string;
  @ApiPropertyOptional({ description: 'The acting subject of a delegated caller (`act.sub`)' }) actor?: string;
  @ApiPropertyOptional({ description: 'The delegation grant the token names' }) grantId?: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
}

export class ExplainedQuestionDto {
  @ApiProperty({ type: ExplainedCallerDto }) caller!: ExplainedCallerDto;
  @ApiProperty({ type: ResourceDescriptorDto }) resource!: ResourceDescriptorDto;
  @ApiProperty({ enum: AUTHORIZATION_ACTIONS }) action!: AuthorizationAction;
}

export class EvaluatorTraceDto {
  @ApiProperty({ enum: ['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature'] }) evaluator!: EvaluatorResult['evaluator'];
  @ApiProperty({ enum: ['Allow', 'Deny', 'Neutral'] }) verdict!: EvaluatorResult['verdict'];
  @ApiProperty() reason!: string;
  @ApiPropertyOptional({ type: [String] }) obligations?: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'What the evaluator looked at, its own shape: RBAC the roles and grants of the caller (`roles[].roleName`, `holdsCode`), ' +
      'AppScope the scopes, ABAC the rules it tried, ReBAC the relations, Feature the feature flag. Store error messages are left out.',
  })
  inputs!: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'The policy store that could not be read (the evaluator then denied, fail-closed)' })
  storeFailure?: string;
  @ApiPropertyOptional({ description: 'true when the evaluator threw (counted as Deny); the message stays in the platform' })
  failed?: boolean;
}

export class MergeTraceDto {
  @ApiProperty({ enum: ['Permit', 'Deny', 'NoMatchingPolicy'] }) outcome!: DecisionOutcome;
  @ApiProperty() permitted!: boolean;
  @ApiProperty({
    enum: ['AnyDeny', 'AnyAllow', 'AllNeutral', 'DelegationNotCovered', 'GrantExpiredInFlight', 'TenantSuspended', 'TenantStatusUnavailable'],
    description: 'The merge rule that decided',
  })
  rule!: MergeRule;
  @ApiProperty({ type: [String], description: '`evaluator: reason` of every Deny, in registration order' }) denialReasons!: string[];
  @ApiProperty({ type: [String] }) obligations!: string[];
}

export class DataScopeTraceDto {
  @ApiProperty({ description: DATA_SCOPE }) dataScope!: DataScope;
  @ApiProperty({ enum: ['not-permitted', 'default', 'widest', 'instance-over-excluding-scope'], description: 'How the DataScope was chosen' })
  rule!: DataScopeRule;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: `One candidate per scope kind, widest first (${DATA_SCOPE})`,
  })
  candidates!: DataScope[];
}

/**
 * The full account of the caller's own decision (`authz.explain` over HTTP): the answer, as
 * `POST /decisions` gives it, then every evaluator's inputs, the merge and the DataScope resolution.
 */
export class DecisionExplanationResponse {
  @ApiProperty({ type: DecisionResponse, description: 'The decision itself, as POST /api/authorization/decisions answers it' })
  decision!: DecisionResponse;
  @ApiProperty({ type: ExplainedQuestionDto }) question!: ExplainedQuestionDto;
  @ApiProperty({ example: 'cases.case.view' }) permissionCode!: string;
  @ApiProperty({ format: 'date-time' }) evaluatedAt!: string;
  @ApiProperty({ type: [EvaluatorTraceDto], description: 'In registration order' }) evaluators!: EvaluatorTraceDto[];
  @ApiProperty({ type: MergeTraceDto }) merge!: MergeTraceDto;
  @ApiProperty({ type: DataScopeTraceDto }) dataScope!: DataScopeTraceDto;

  static of(explanation: DecisionExplanation): DecisionExplanationResponse {
    const { caller, resource, action } = explanation.request;
    return {
      decision: DecisionResponse.of(explanation.decision),
      question: { caller: callerOf(caller), resource: { ...resource }, action },
      permissionCode: explanation.permissionCode,
      evaluatedAt: explanation.evaluatedAt,
      evaluators: explanation.evaluators.map(traceOf),
      merge: { ...explanation.merge },
      dataScope: { ...explanation.dataScope },
    };
  }
}

/** Named field by field: whatever else a caller carries (claims digest, expiry) stays inside. */
function callerOf(caller: TrustedCaller): ExplainedCallerDto {
  return {
    kind: caller.kind,
    subject: caller.subject,
    tenantId: caller.tenantId,
    ...(caller.clientId !== undefined ? { clientId: caller.clientId } : {}),
    ...(caller.actor !== undefined ? { actor: caller.actor } : {}),
    ...(caller.grantId !== undefined ? { grantId: caller.grantId } : {}),
    scopes: [...caller.scopes],
  };
}

/** A store's or an evaluator's error text can name hosts, users or SQL: it stays in the RPC trace. */
function traceOf(trace: EvaluatorTrace): EvaluatorTraceDto {
  const inputs = { ...trace.inputs };
  delete inputs['storeError'];
  return {
    evaluator: trace.evaluator,
    verdict: trace.verdict,
    reason: trace.reason,
    ...(trace.obligations ? { obligations: [...trace.obligations] } : {}),
    inputs,
    ...(trace.storeFailure !== undefined ? { storeFailure: trace.storeFailure } : {}),
    ...(trace.error !== undefined ? { failed: true } : {}),
  };
}

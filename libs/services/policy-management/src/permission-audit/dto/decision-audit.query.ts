import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import {
  AUTHORIZATION_ACTIONS,
  AuthorizationAction,
  CALLER_KINDS,
  CallerKind,
  CORRELATION_ID_PATTERN,
  DECISION_REASON_CODES,
  DecisionOutcome,
  DecisionReasonCode,
  MAX_AUDIT_FILTER_LENGTH,
  PERMISSION_SEGMENT,
} from '@lp/contracts';
import { OptionalInstant, PageQuery } from '@lp/platform/http';

export const DECISION_OUTCOMES: readonly DecisionOutcome[] = ['Permit', 'Deny', 'NoMatchingPolicy'];

const oneOf = (field: string, values: readonly string[]) => ({ message: `${field} must be one of ${values.join(', ')}` });
/** A decision stores its module and resource type in lower case, as its permission code has them. */
const lowerCase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);
const SEGMENT_RULE = 'lower-case letters, digits and "-", a letter first (the segment of a permission code)';

/** Filters of `GET /permission-audit/decisions`, every one given must hold; `from` inclusive, `to` exclusive. */
export class DecisionAuditQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Subject the decision was made for (a user, the client id of an application, the delegator of a delegated caller)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_AUDIT_FILTER_LENGTH)
  subject?: string;

  @ApiPropertyOptional({ enum: DECISION_OUTCOMES })
  @IsOptional()
  @IsIn(DECISION_OUTCOMES, oneOf('outcome', DECISION_OUTCOMES))
  outcome?: DecisionOutcome;

  @ApiPropertyOptional({
    enum: CALLER_KINDS,
    description: 'Who asked: a person (`user`), a service or client (`application`), or someone acting for another (`delegated`)',
  })
  @IsOptional()
  @IsIn(CALLER_KINDS, oneOf('callerKind', CALLER_KINDS))
  callerKind?: CallerKind;

  @ApiPropertyOptional({ description: 'The application (client id) that asked' })
  @IsOptional()
  @IsString()
  @Length(1, MAX_AUDIT_FILTER_LENGTH)
  clientId?: string;

  @ApiPropertyOptional({ maxLength: 60, example: 'authorization', description: 'Module of the resource (any case)' })
  @IsOptional()
  @Transform(lowerCase)
  @IsString()
  @MaxLength(60)
  @Matches(PERMISSION_SEGMENT, { message: `module must be ${SEGMENT_RULE}` })
  module?: string;

  @ApiPropertyOptional({ maxLength: 60, example: 'role', description: 'Resource type (any case)' })
  @IsOptional()
  @Transform(lowerCase)
  @IsString()
  @MaxLength(60)
  @Matches(PERMISSION_SEGMENT, { message: `resourceType must be ${SEGMENT_RULE}` })
  resourceType?: string;

  @ApiPropertyOptional({ enum: AUTHORIZATION_ACTIONS })
  @IsOptional()
  @IsIn(AUTHORIZATION_ACTIONS, oneOf('action', AUTHORIZATION_ACTIONS))
  action?: AuthorizationAction;

  @ApiPropertyOptional({ enum: DECISION_REASON_CODES, description: 'The merge rule that decided (see the item field `reasonCode`)' })
  @IsOptional()
  @IsIn(DECISION_REASON_CODES, oneOf('reasonCode', DECISION_REASON_CODES))
  reasonCode?: DecisionReasonCode;

  @ApiPropertyOptional({ maxLength: 128, description: 'The correlation id of the request the decision was made for (`X-Correlation-Id`)' })
  @IsOptional()
  @IsString()
  @Matches(CORRELATION_ID_PATTERN, { message: 'correlationId must be 1-128 letters, digits, ".", "_", ":" or "-"' })
  correlationId?: string;

  @OptionalInstant('Inclusive')
  from?: string;

  @OptionalInstant('Exclusive')
  to?: string;
}

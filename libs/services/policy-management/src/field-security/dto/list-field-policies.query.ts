import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Length, Matches } from 'class-validator';
import { PageQuery } from '@lp/platform/http';
import { CODE_SEGMENT } from './put-field-policy.dto';

/** Optional exact filters, together narrowing (AND). */
export class ListFieldPoliciesQuery extends PageQuery {
  @ApiPropertyOptional({ maxLength: 60 })
  @IsOptional()
  @IsString()
  @Length(1, 60)
  @Matches(CODE_SEGMENT)
  module?: string;

  @ApiPropertyOptional({ maxLength: 60 })
  @IsOptional()
  @IsString()
  @Length(1, 60)
  @Matches(CODE_SEGMENT)
  resourceType?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  roleId?: string;
}

/** All three are required: the effective policy is asked for one resource type and one subject. */
export class EffectiveFieldPolicyQuery {
  @ApiProperty({ maxLength: 60 })
  @IsString()
  @Length(1, 60)
  @Matches(CODE_SEGMENT)
  module!: string;

  @ApiProperty({ maxLength: 60 })
  @IsString()
  @Length(1, 60)
  @Matches(CODE_SEGMENT)
  resourceType!: string;

  @ApiProperty({ maxLength: 255, description: 'The user subject whose roles are combined.' })
  @IsString()
  @Length(1, 255)
  subject!: string;
}

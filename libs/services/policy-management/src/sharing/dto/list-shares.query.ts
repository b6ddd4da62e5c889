import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { PageQuery } from '@lp/platform/http';
import { RELATION_SUBJECT_KINDS, RelationSubjectKind } from '../../policy-store';
import { SHAREABLE_RESOURCE_TYPES, ShareableResourceType } from '../shareable-resources';

/** Every filter is optional and exact; together they narrow (AND). */
export class ListSharesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: SHAREABLE_RESOURCE_TYPES })
  @IsOptional()
  @IsIn(SHAREABLE_RESOURCE_TYPES)
  resourceType?: ShareableResourceType;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  resourceId?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'A user subject or a role name.' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  subject?: string;

  @ApiPropertyOptional({ enum: RELATION_SUBJECT_KINDS })
  @IsOptional()
  @IsIn(RELATION_SUBJECT_KINDS)
  subjectKind?: RelationSubjectKind;
}

import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { RELATION_SUBJECT_KINDS, RESOURCE_RELATION_NAMES, RelationSubjectKind, ResourceRelationName } from '../../policy-store';
import { SHAREABLE_RESOURCE_TYPES, ShareableResourceType } from '../shareable-resources';

/** No control characters or surrounding blanks in ids: they are compared verbatim at decision time. */
export const PLAIN_ID = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

export class CreateShareDto {
  @ApiProperty({ enum: SHAREABLE_RESOURCE_TYPES })
  @IsIn(SHAREABLE_RESOURCE_TYPES)
  resourceType!: ShareableResourceType;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'c-1' })
  @IsString()
  @Length(1, 200)
  @Matches(PLAIN_ID, { message: 'resourceId must not contain control characters or surrounding blanks' })
  resourceId!: string;

  @ApiProperty({ minLength: 1, maxLength: 255, description: 'A user subject, or a role name of the tenant when subjectKind is role.' })
  @IsString()
  @Length(1, 255)
  @Matches(PLAIN_ID, { message: 'subject must not contain control characters or surrounding blanks' })
  subject!: string;

  @ApiProperty({ enum: RELATION_SUBJECT_KINDS })
  @IsIn(RELATION_SUBJECT_KINDS)
  subjectKind!: RelationSubjectKind;

  @ApiProperty({ enum: RESOURCE_RELATION_NAMES })
  @IsIn(RESOURCE_RELATION_NAMES)
  relation!: ResourceRelationName;
}

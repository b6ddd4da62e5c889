import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { RELATION_SUBJECT_KINDS, RESOURCE_RELATION_NAMES, RelationSubjectKind, ResourceRelationEntity, ResourceRelationName } from '../../policy-store';

export class ShareResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'case' }) resourceType!: string;
  @ApiProperty() resourceId!: string;
  @ApiProperty({ description: 'A user subject, or a role name when subjectKind is role.' }) subject!: string;
  @ApiProperty({ enum: RELATION_SUBJECT_KINDS }) subjectKind!: RelationSubjectKind;
  @ApiProperty({ enum: RESOURCE_RELATION_NAMES }) relation!: ResourceRelationName;
  @ApiProperty() createdAt!: string;
  @ApiProperty() createdBy!: string;

  static of(row: ResourceRelationEntity): ShareResponse {
    return {
      id: row.id,
      resourceType: row.resourceType,
      resourceId: row.resourceId,
      subject: row.subject,
      subjectKind: row.subjectKind,
      relation: row.relation,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy,
    };
  }
}

export class SharePage extends PageMeta {
  @ApiProperty({ type: [ShareResponse] }) items!: ShareResponse[];
}

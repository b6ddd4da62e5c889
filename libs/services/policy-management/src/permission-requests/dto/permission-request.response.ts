import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { PERMISSION_REQUEST_STATUSES, PermissionRequestStatus } from '../../policy-store/entities/permission-request.entity';

export class PermissionRequestResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The requester, who receives the grant.' }) subject!: string;
  @ApiProperty({ type: [String] }) permissionCodes!: string[];
  @ApiProperty() durationSeconds!: number;
  @ApiProperty() reason!: string;
  @ApiProperty({ enum: PERMISSION_REQUEST_STATUSES, description: 'Effective status: an approved request whose grant has run out reads `expired`.' })
  status!: PermissionRequestStatus;
  @ApiPropertyOptional({ nullable: true, type: String }) decidedBy!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) decidedAt!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) decisionNote!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) grantId!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time', description: 'Absolute end of the grant (approval instant + duration).' })
  grantExpiresAt!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) workflowInstanceId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class PermissionRequestPage extends PageMeta {
  @ApiProperty({ type: [PermissionRequestResponse] }) items!: PermissionRequestResponse[];
}

import { ApiProperty } from '@nestjs/swagger';
import { CASE_STATUSES, CASE_TYPES, type CaseStatus, type CaseType, type LitigationCase } from '@lp/contracts';
import { PageMeta } from '@lp/platform/http';

/** A litigation case as every route and RPC pattern returns it (`LitigationCase`). */
export class CaseResponse implements LitigationCase {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'LIT-2026-000123', pattern: '^LIT-\\d{4}-\\d{6,}$' }) matterNumber!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: CASE_TYPES }) caseType!: CaseType;
  @ApiProperty({ type: 'number' }) claimAmount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty() defendantName!: string;
  @ApiProperty({ enum: CASE_STATUSES }) status!: CaseStatus;
  @ApiProperty({ description: "The owner's subject: the creator (also the case's ReBAC `owner` relation)." }) owner!: string;
  @ApiProperty({ type: 'string', nullable: true }) officeId!: string | null;
  @ApiProperty() tenantId!: string;
  @ApiProperty() createdBy!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class CasePage extends PageMeta {
  @ApiProperty({ type: CaseResponse, isArray: true }) items!: CaseResponse[];
}

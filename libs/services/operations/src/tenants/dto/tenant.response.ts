import { ApiProperty } from '@nestjs/swagger';
import { TENANT_STATUSES, TenantStatus } from '@lp/contracts';

/** One row of the tenant list (specs/operations.md §2, Tenant summary list). */
export class TenantSummary {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TENANT_STATUSES }) status!: TenantStatus;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** One tenant in full (GET /tenants/{id}, and the answer of POST and PATCH). */
export class TenantResponse extends TenantSummary {
  @ApiProperty({ description: "The subject bound to the tenant's tenant-admin role." }) adminSubject!: string;
  @ApiProperty({ description: 'False while the first administrator is not confirmed set up (repeat the create to complete it).' })
  administratorReady!: boolean;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() createdBy!: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TENANT_STATUSES, TenantStatus } from '@lp/contracts';

/** Body of PATCH /api/operations/tenants/{id}. */
export class UpdateTenantStatusDto {
  @ApiProperty({ enum: TENANT_STATUSES })
  @IsIn(TENANT_STATUSES)
  status!: TenantStatus;
}

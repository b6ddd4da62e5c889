import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { TenantStatus } from '@lp/contracts';

/**
 * A tenant's status as decisions read it (authz-decision denies every caller of a suspended
 * tenant). operations owns the tenant and reports its status here; `version` is operations'
 * counter, so an older report arriving late never overwrites a newer one. No row: active.
 */
@Entity({ name: 'tenant_status' })
export class TenantStatusEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: TenantStatus;

  /** bigint travels as a string through pg. */
  @Column({ type: 'bigint' })
  version!: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'varchar', length: 255 })
  updatedBy!: string;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { TenantStatus } from '@lp/contracts';

/**
 * A tenant of the platform (`platform.tenant`; docs/tenants.md). Its id is the tenant id of every
 * other service's rows and of the tokens' `tenant_id` claim. Status changes are numbered
 * (`statusVersion`) for policy-management, which holds the decision-side copy of the status.
 */
@Entity({ schema: 'platform', name: 'tenant' })
export class TenantEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: TenantStatus;

  /** bigint: pg hands it over as a string. */
  @Column({ name: 'status_version', type: 'bigint' })
  statusVersion!: string;

  /** The subject bound to the tenant's `tenant-admin` role by the bootstrap. */
  @Column({ name: 'admin_subject', type: 'varchar', length: 255 })
  adminSubject!: string;

  /** When policy-management confirmed the first administrator; null while the bootstrap is pending. */
  @Column({ name: 'bootstrapped_at', type: 'timestamptz', nullable: true })
  bootstrappedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;
}

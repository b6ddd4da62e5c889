import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type PermissionRequestStatus = 'pending' | 'approved' | 'rejected' | 'revoked' | 'expired';
export const PERMISSION_REQUEST_STATUSES: readonly PermissionRequestStatus[] = ['pending', 'approved', 'rejected', 'revoked', 'expired'];

/**
 * A subject asks for permission codes for a duration, with a reason. Approval creates a temporary
 * grant (`grantId`, absolute expiry from the approval instant); `workflowInstanceId` is where the
 * workflow engine's instance will be recorded once approvals run through it.
 */
@Entity({ name: 'permission_request' })
@Index('ix_permission_request_tenant_status', ['tenantId', 'status', 'createdAt'])
@Index('ix_permission_request_subject', ['tenantId', 'subject'])
export class PermissionRequestEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ name: 'permission_codes', type: 'text', array: true })
  permissionCodes!: string[];

  @Column({ name: 'duration_seconds', type: 'integer' })
  durationSeconds!: number;

  @Column({ type: 'varchar', length: 1000 })
  reason!: string;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status!: PermissionRequestStatus;

  @Column({ name: 'decided_by', type: 'varchar', length: 255, nullable: true })
  decidedBy!: string | null;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'decision_note', type: 'varchar', length: 1000, nullable: true })
  decisionNote!: string | null;

  @Column({ name: 'grant_id', type: 'uuid', nullable: true })
  grantId!: string | null;

  @Column({ name: 'workflow_instance_id', type: 'varchar', length: 200, nullable: true })
  workflowInstanceId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

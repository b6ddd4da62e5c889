import { Column, Entity, PrimaryColumn } from 'typeorm';

export const INSTANCE_STATUSES = ['Running', 'Suspended', 'Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled'] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** A running (or ended) process instance, pinned to the version it started on (docs/runtime.md). */
@Entity({ schema: 'workflow', name: 'instance' })
export class WorkflowInstanceEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ name: 'definition_key', type: 'varchar', length: 64 })
  definitionKey!: string;

  @Column({ name: 'definition_version_id', type: 'uuid' })
  definitionVersionId!: string;

  @Column({ name: 'business_key', type: 'varchar', length: 200 })
  businessKey!: string;

  @Column({ type: 'varchar', length: 255 })
  initiator!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: InstanceStatus;

  @Column({ type: 'jsonb' })
  variables!: Record<string, unknown>;

  /** The walk: parked approval nodes, parallel joins, visits, resolved assignees. */
  @Column({ type: 'jsonb' })
  position!: Record<string, unknown>;

  @Column({ type: 'integer' })
  priority!: number;

  /** Bumped by every write, under the row's lock. */
  @Column({ type: 'integer' })
  version!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;
}

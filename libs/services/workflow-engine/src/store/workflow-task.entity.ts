import { Column, Entity, PrimaryColumn } from 'typeorm';

export const TASK_STATUSES = ['Pending', 'Approved', 'Rejected', 'Transferred', 'Delegated', 'Cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One assignee's task at one visit of an approval node; its final status is the vote (docs/runtime.md). */
@Entity({ schema: 'workflow', name: 'task' })
export class WorkflowTaskEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId!: string;

  @Column({ name: 'node_key', type: 'varchar', length: 64 })
  nodeKey!: string;

  @Column({ type: 'integer' })
  visit!: number;

  /** The assignee's place in the node's resolved list (sequential mode opens them in this order). */
  @Column({ type: 'integer' })
  seq!: number;

  @Column({ type: 'varchar', length: 255 })
  assignee!: string;

  /** On a delegate’s task: the assignee who delegated it and gets it back once the delegate acted; null otherwise (docs/runtime.md). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  owner!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: TaskStatus;

  @Column({ type: 'text', nullable: true })
  comment!: string | null;

  @Column({ name: 'read_at', type: 'timestamptz', nullable: true })
  readAt!: Date | null;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'decided_by', type: 'varchar', length: 255, nullable: true })
  decidedBy!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

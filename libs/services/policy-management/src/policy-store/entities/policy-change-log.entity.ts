import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One committed policy change: who (actor), in which tenant (null: a global feature default), what
 * (`change`, e.g. `role.created`, and its target), the state before and after, and the correlation
 * id of the request. Written in the change's own transaction together with its outbox event.
 */
@Entity({ name: 'policy_change_log' })
@Index('ix_policy_change_log_tenant_time', ['tenantId', 'occurredAt', 'id'])
export class PolicyChangeLogEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64, nullable: true })
  tenantId!: string | null;

  @Column({ type: 'varchar', length: 255 })
  actor!: string;

  @Column({ name: 'actor_kind', type: 'varchar', length: 20 })
  actorKind!: string;

  @Column({ type: 'varchar', length: 80 })
  change!: string;

  @Column({ name: 'target_type', type: 'varchar', length: 60 })
  targetType!: string;

  @Column({ name: 'target_id', type: 'varchar', length: 255 })
  targetId!: string;

  @Column({ type: 'jsonb', nullable: true })
  before: unknown;

  @Column({ type: 'jsonb', nullable: true })
  after: unknown;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId!: string | null;

  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'now()' })
  occurredAt!: Date;
}

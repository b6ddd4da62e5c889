import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A delivery whose retries ran out (`webhooks.dead_letter`); replay sends the same delivery again. */
@Entity({ name: 'dead_letter' })
export class DeadLetterEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'tenant_id', type: 'varchar', length: 64 }) tenantId!: string;
  @Column({ name: 'subscription_id', type: 'uuid' }) subscriptionId!: string;
  @Column({ name: 'delivery_id', type: 'uuid' }) deliveryId!: string;
  @Column({ name: 'event_id', type: 'varchar', length: 200 }) eventId!: string;
  @Column({ name: 'event_type', type: 'varchar', length: 200 }) eventType!: string;
  @Column({ type: 'varchar', length: 64 }) reason!: string;
  @Column({ type: 'integer' }) attempts!: number;
  @Column({ name: 'last_status_code', type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'replayed_at', type: 'timestamptz', nullable: true }) replayedAt!: Date | null;
  @Column({ name: 'replayed_by', type: 'varchar', length: 255, nullable: true }) replayedBy!: string | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}

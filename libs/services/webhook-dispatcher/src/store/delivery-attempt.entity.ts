import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One attempt of a delivery (`webhooks.delivery_attempt`): the delivery log of spec §2, plus latency. */
@Entity({ name: 'delivery_attempt' })
export class DeliveryAttemptEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'tenant_id', type: 'varchar', length: 64 }) tenantId!: string;
  @Column({ name: 'subscription_id', type: 'uuid' }) subscriptionId!: string;
  @Column({ name: 'delivery_id', type: 'uuid' }) deliveryId!: string;
  @Column({ name: 'event_id', type: 'varchar', length: 200 }) eventId!: string;
  @Column({ name: 'event_type', type: 'varchar', length: 200 }) eventType!: string;
  @Column({ name: 'attempt_number', type: 'integer' }) attemptNumber!: number;
  @Column({ type: 'varchar', length: 16 }) outcome!: 'succeeded' | 'failed';
  @Column({ name: 'http_status_code', type: 'integer', nullable: true }) httpStatusCode!: number | null;
  @Column({ name: 'response_body', type: 'text', nullable: true }) responseBody!: string | null;
  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true }) errorCode!: string | null;
  @Column({ name: 'error_message', type: 'text', nullable: true }) errorMessage!: string | null;
  @Column({ name: 'latency_ms', type: 'integer' }) latencyMs!: number;
  @Column({ name: 'delivered_at', type: 'timestamptz' }) deliveredAt!: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}

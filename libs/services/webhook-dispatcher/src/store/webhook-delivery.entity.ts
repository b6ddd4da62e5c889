import { Column, Entity, PrimaryColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'succeeded' | 'dead' | 'cancelled';
export type DeliveryKind = 'event' | 'ping';

/**
 * One event for one subscription (`webhooks.delivery`); its id is the `X-Webhook-Delivery-Id` and
 * `webhook-id` every attempt and every replay carries, so receivers deduplicate on it.
 */
@Entity({ name: 'delivery' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'tenant_id', type: 'varchar', length: 64 }) tenantId!: string;
  @Column({ name: 'subscription_id', type: 'uuid' }) subscriptionId!: string;
  @Column({ name: 'event_id', type: 'varchar', length: 200 }) eventId!: string;
  @Column({ name: 'event_type', type: 'varchar', length: 200 }) eventType!: string;
  @Column({ type: 'jsonb' }) payload!: unknown;
  @Column({ name: 'occurred_at', type: 'timestamptz' }) occurredAt!: Date;
  @Column({ type: 'varchar', length: 16 }) kind!: DeliveryKind;
  @Column({ type: 'varchar', length: 16 }) status!: DeliveryStatus;
  /** Attempts ever made (the delivery log's last attempt number). */
  @Column({ name: 'attempt_count', type: 'integer' }) attemptCount!: number;
  /** Attempts since the delivery was created or last replayed: the retry budget counts these. */
  @Column({ name: 'round_attempts', type: 'integer' }) roundAttempts!: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt!: Date | null;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil!: Date | null;
  @Column({ name: 'locked_by', type: 'varchar', length: 64, nullable: true }) lockedBy!: string | null;
  @Column({ name: 'last_status_code', type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt!: Date | null;
  /** The trace its attempts belong to (W3C `traceparent`); null while tracing is off. */
  @Column({ type: 'varchar', length: 55, nullable: true }) traceparent!: string | null;
}

import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per event a consumer has handled: the idempotency record that turns at-least-once
 * delivery into effectively-once handling (IdempotentConsumer). In the service's default schema.
 */
@Entity({ name: 'processed_event' })
export class ProcessedEvent {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  consumer!: string;

  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 128 })
  eventId!: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt!: Date;
}

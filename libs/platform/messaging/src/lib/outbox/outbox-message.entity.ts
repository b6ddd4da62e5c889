import type { EventEnvelope } from '@lp/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An integration event written in the same transaction as the state change it reports (the
 * transactional outbox), published later by the OutboxRelay. No schema here: each service's
 * DataSource sets its own default schema, so every service has its own `outbox_message` table.
 */
@Entity({ name: 'outbox_message' })
@Index('IX_outbox_message_unsent', ['id'], { where: '"sent_at" IS NULL' })
@Index('IX_outbox_message_sent_at', ['sentAt'], { where: '"sent_at" IS NOT NULL' })
export class OutboxMessage {
  /** Insertion order, which is also publishing order. `bigint` comes back from pg as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Index('UQ_outbox_message_event_id', { unique: true })
  @Column({ name: 'event_id', type: 'varchar', length: 128 })
  eventId!: string;

  @Column({ name: 'event_type', type: 'varchar', length: 255 })
  eventType!: string;

  @Column({ type: 'jsonb' })
  envelope!: EventEnvelope;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** When the broker confirmed it; null while unsent. */
  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  /** Failed publish attempts, for operators looking at a stuck row. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /**
   * The W3C `traceparent` of the span that wrote the event (null while tracing is off): the relay
   * publishes the event with it, so its consumers continue the trace of the write that caused it.
   */
  @Column({ type: 'varchar', length: 55, nullable: true })
  traceparent!: string | null;

  /** A relay instance holds the row until then while it publishes it (a crashed relay's lease runs out). */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;
}

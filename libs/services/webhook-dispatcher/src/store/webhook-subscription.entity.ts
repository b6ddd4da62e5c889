import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A webhook subscription (`webhooks.subscription`). The secret columns hold AES-256-GCM ciphertext
 * (`SecretVault`), never the secret itself; `secret_fingerprint` (SHA-256, hex) is what lists show.
 */
@Entity({ name: 'subscription' })
export class WebhookSubscriptionEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'tenant_id', type: 'varchar', length: 64 }) tenantId!: string;
  @Column({ name: 'callback_url', type: 'varchar', length: 2048 }) callbackUrl!: string;
  @Column({ name: 'event_types', type: 'jsonb' }) eventTypes!: string[];
  @Column({ type: 'varchar', length: 500, nullable: true }) description!: string | null;
  @Column({ name: 'is_active', type: 'boolean' }) isActive!: boolean;
  /** Why the dispatcher (not a person) turned it off: `gone` after a 410 answer. */
  @Column({ name: 'deactivated_reason', type: 'varchar', length: 32, nullable: true }) deactivatedReason!: string | null;
  /** Null: the dispatcher's default (`WEBHOOK_MAX_RETRIES`). */
  @Column({ name: 'max_retries', type: 'integer', nullable: true }) maxRetries!: number | null;
  @Column({ name: 'secret_ciphertext', type: 'text' }) secretCiphertext!: string;
  @Column({ name: 'secret_key_version', type: 'integer' }) secretKeyVersion!: number;
  @Column({ name: 'secret_fingerprint', type: 'varchar', length: 64 }) secretFingerprint!: string;
  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true }) previousSecretCiphertext!: string | null;
  @Column({ name: 'previous_secret_key_version', type: 'integer', nullable: true }) previousSecretKeyVersion!: number | null;
  @Column({ name: 'previous_secret_fingerprint', type: 'varchar', length: 64, nullable: true }) previousSecretFingerprint!: string | null;
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true }) previousSecretExpiresAt!: Date | null;
  @Column({ type: 'integer' }) revision!: number;
  @Column({ name: 'created_by', type: 'varchar', length: 255 }) createdBy!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_by', type: 'varchar', length: 255 }) updatedBy!: string;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'deleted_by', type: 'varchar', length: 255, nullable: true }) deletedBy!: string | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The delegator lets `actor` act on its behalf (RFC 8693 `act`) for the listed codes until
 * `expiresAt`. It never widens the delegator's own authority; the decision core checks both.
 */
@Entity({ name: 'delegated_grant' })
@Index('ix_delegated_grant_delegator', ['tenantId', 'delegator'])
@Index('ix_delegated_grant_actor', ['tenantId', 'actor'])
export class DelegatedGrantEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** The subject whose authority is delegated. */
  @Column({ type: 'varchar', length: 255 })
  delegator!: string;

  @Column({ type: 'varchar', length: 255 })
  actor!: string;

  @Column({ name: 'permission_codes', type: 'text', array: true })
  permissionCodes!: string[];

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  reason!: string | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** When the grant-expiry job recorded the end (event and change log); null while it is recorded as active. */
  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true })
  expiredAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

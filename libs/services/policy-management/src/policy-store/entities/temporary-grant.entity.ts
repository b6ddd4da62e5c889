import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RoleDataScope } from './role.entity';

/**
 * A time-boxed grant of permission codes to a subject, e.g. from a workflow-approved access
 * request (spec §1 rule 5: absolute expiry). Active while not revoked and `now < expiresAt`.
 * Rows are kept after revocation and expiry; (tenant, source, sourceId) is unique, so a
 * redelivered approval cannot grant twice.
 */
@Entity({ name: 'temporary_grant' })
@Index('ix_temporary_grant_subject', ['tenantId', 'subject'])
export class TemporaryGrantEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ name: 'permission_codes', type: 'text', array: true })
  permissionCodes!: string[];

  /** Row scope of the grant; null means the decision core's documented default. */
  @Column({ name: 'data_scope', type: 'varchar', length: 20, nullable: true })
  dataScope!: RoleDataScope | null;

  @Column({ type: 'varchar', length: 1000 })
  reason!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** When the grant-expiry job recorded the end (event and change log); null while it is recorded as active. */
  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true })
  expiredAt!: Date | null;

  /** Where the grant comes from, e.g. `permission-request`. */
  @Column({ type: 'varchar', length: 50 })
  source!: string;

  @Column({ name: 'source_id', type: 'varchar', length: 200, nullable: true })
  sourceId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;
}

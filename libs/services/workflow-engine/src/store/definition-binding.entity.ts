import { Column, Entity, PrimaryColumn } from 'typeorm';

export const BINDING_STATUSES = ['active', 'grayscale'] as const;
export type BindingStatus = (typeof BINDING_STATUSES)[number];

/** Which version of a key is active, the one before it (for rollback), and the status marker. */
@Entity({ schema: 'workflow', name: 'definition_binding' })
export class DefinitionBindingEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ name: 'active_version_id', type: 'uuid' })
  activeVersionId!: string;

  @Column({ name: 'previous_version_id', type: 'uuid', nullable: true })
  previousVersionId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: BindingStatus;

  @Column({ name: 'updated_by', type: 'varchar', length: 255 })
  updatedBy!: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

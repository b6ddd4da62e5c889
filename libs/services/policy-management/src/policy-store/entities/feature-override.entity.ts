import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A tenant's override of a feature, kept apart from the global default (spec §2). No row: the
 * default applies. Deleting the definition deletes its overrides.
 */
@Entity({ name: 'feature_override' })
export class FeatureOverrideEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'feature_code', type: 'varchar', length: 100 })
  featureCode!: string;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'varchar', length: 255 })
  updatedBy!: string;
}

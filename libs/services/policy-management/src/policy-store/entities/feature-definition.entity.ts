import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Global feature definition (spec §2): code unique globally, with its global default. */
@Entity({ name: 'feature_definition' })
export class FeatureDefinitionEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  code!: string;

  @Column({ type: 'varchar', length: 500 })
  description!: string;

  @Column({ name: 'default_enabled', type: 'boolean' })
  defaultEnabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

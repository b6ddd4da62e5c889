import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The work in progress of a key (at most one), saved with an optimistic revision. */
@Entity({ schema: 'workflow', name: 'definition_draft' })
export class DefinitionDraftEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'jsonb' })
  definition!: Record<string, unknown>;

  /** 1 on creation, +1 on every save; a save must name the revision it was based on. */
  @Column({ type: 'integer' })
  revision!: number;

  @Column({ name: 'updated_by', type: 'varchar', length: 255 })
  updatedBy!: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

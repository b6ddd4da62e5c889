import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One definition key of a tenant: the anchor row publish, grayscale and rollback lock (docs/definitions.md, Concurrency). */
@Entity({ schema: 'workflow', name: 'definition' })
export class DefinitionEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

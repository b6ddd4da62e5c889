import { Column, Entity, PrimaryColumn } from 'typeorm';

export const VERSION_SOURCES = ['publish', 'legacy-deploy'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** An immutable published snapshot of a definition: never updated, never deleted by these routes. */
@Entity({ schema: 'workflow', name: 'definition_version' })
export class DefinitionVersionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  /** 1, 2, 3… per (tenant, key), drawn under the definition row's lock. */
  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'jsonb' })
  definition!: Record<string, unknown>;

  /** SHA-256 (hex) of the canonical JSON: equal definitions have equal checksums whatever their key order. */
  @Column({ type: 'char', length: 64 })
  checksum!: string;

  @Column({ type: 'varchar', length: 16 })
  source!: VersionSource;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

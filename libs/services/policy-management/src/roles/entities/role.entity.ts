import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DataScopeKind } from '@lp/contracts';

/** A tenant's role. The name is the tenant-local key that relation rows use (spec §2). */
@Entity({ name: 'role' })
@Index('uq_role_tenant_name', ['tenantId', 'name'], { unique: true })
export class RoleEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  /** The DataScope kind a holder of this role gets (tenant, office, own, instances, none). */
  @Column({ name: 'data_scope', type: 'varchar', length: 20, default: 'tenant' })
  dataScope: DataScopeKind;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A role's data-scope setting: which rows of the tenant a permission granted by the role reaches.
 * The decision core's role settings (`DataScopeSetting`); not `DataScopeKind`, whose `instances`
 * comes from relations and sharing, never from a role. `ck_role_data_scope` enforces the same list.
 */
export type RoleDataScope = 'tenant' | 'office' | 'own' | 'none';
export const ROLE_DATA_SCOPES: readonly RoleDataScope[] = ['tenant', 'office', 'own', 'none'];

/**
 * A tenant's role. The name is the tenant-local key that relation rows use (spec §2): `user_role`
 * and `role_permission` copy it, and their composite foreign key on (id, tenant_id, name) with
 * ON UPDATE CASCADE keeps the copies in step when a role is renamed.
 */
@Entity({ name: 'role' })
@Index('uq_role_tenant_name', ['tenantId', 'name'], { unique: true })
export class RoleEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  /** The rows a permission granted by this role reaches (tenant, office, own, none). */
  @Column({ name: 'data_scope', type: 'varchar', length: 20, default: 'tenant' })
  dataScope!: RoleDataScope;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

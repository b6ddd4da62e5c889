import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Role-permission relation (spec §2: role name, menu module code, permission code). `roleName`,
 * `permissionCode` and `module` are copies kept in step by composite foreign keys with ON UPDATE
 * CASCADE (to role (id, tenant_id, name) and permission (id, code, module)): a role rename
 * rewrites them, so writers set them once on insert and never update them. Deleting the role or
 * the permission deletes the row.
 */
@Entity({ name: 'role_permission' })
@Index('ix_role_permission_tenant_role', ['tenantId', 'roleName'])
export class RolePermissionEntity {
  @PrimaryColumn({ name: 'role_id', type: 'uuid' })
  roleId!: string;

  @PrimaryColumn({ name: 'permission_id', type: 'uuid' })
  permissionId!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ name: 'role_name', type: 'varchar', length: 100 })
  roleName!: string;

  @Column({ name: 'permission_code', type: 'varchar', length: 200 })
  permissionCode!: string;

  /** Menu module code: the permission's module. */
  @Column({ type: 'varchar', length: 60 })
  module!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * User-role relation (spec §2): the identity subject key from the identity owner, bound to a
 * role of the same tenant. `roleName` is a copy kept in step by the composite foreign key to role
 * (id, tenant_id, name) with ON UPDATE CASCADE; the same key makes a cross-tenant binding
 * impossible. Deleting the role deletes its bindings.
 */
@Entity({ name: 'user_role' })
export class UserRoleEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  subject!: string;

  @PrimaryColumn({ name: 'role_id', type: 'uuid' })
  roleId!: string;

  @Column({ name: 'role_name', type: 'varchar', length: 100 })
  roleName!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;
}

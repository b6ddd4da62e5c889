import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** What a role gets of one field; persisted as an integer enumeration (`ck_field_policy_effect`). */
export enum FieldPolicyEffect {
  Hidden = 1,
  Masked = 2,
  ReadOnly = 3,
}

/**
 * Field security (spec §4 governance): how one field of a resource type is shown to holders of a
 * role. Keyed like the other relation rows by role id and tenant-local role name (renames cascade).
 */
@Entity({ name: 'field_policy' })
@Index('uq_field_policy', ['tenantId', 'module', 'resourceType', 'field', 'roleId'], { unique: true })
export class FieldPolicyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 60 })
  module!: string;

  @Column({ name: 'resource_type', type: 'varchar', length: 60 })
  resourceType!: string;

  @Column({ type: 'varchar', length: 100 })
  field!: string;

  @Column({ name: 'role_id', type: 'uuid' })
  roleId!: string;

  @Column({ name: 'role_name', type: 'varchar', length: 100 })
  roleName!: string;

  @Column({ type: 'smallint' })
  effect!: FieldPolicyEffect;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;
}

import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * Global permission catalog record (spec §2): no tenant, code unique globally, generated
 * deterministically from the code's declarations. `code` is `{module}.{resource}.{action}` in
 * lower case (`ck_permission_code`); `action` keeps the `AuthorizationAction` value (`Grant`).
 */
@Entity({ name: 'permission' })
@Unique('uq_permission_code', ['code'])
export class PermissionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  code!: string;

  @Column({ type: 'varchar', length: 60 })
  module!: string;

  @Column({ type: 'varchar', length: 60 })
  resource!: string;

  @Column({ type: 'varchar', length: 30 })
  action!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

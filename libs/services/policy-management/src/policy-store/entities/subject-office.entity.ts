import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An office a subject belongs to in a tenant: what an `office` data scope resolves to. */
@Entity({ name: 'subject_office' })
export class SubjectOfficeEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  subject!: string;

  @PrimaryColumn({ name: 'office_id', type: 'varchar', length: 100 })
  officeId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

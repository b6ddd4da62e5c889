import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CaseStatus, CaseType } from '@lp/contracts';

/** numeric(15,2) arrives from pg as a string; every amount the schema accepts is exact as a JS number. */
const amount = { to: (value: number) => value, from: (value: string | null) => (value === null ? null : Number(value)) };

/**
 * A litigation case (`cases.litigation_case`; docs/cases.md). `owner` is the creator's subject, kept
 * on the row (not only as policy-management's ReBAC relation) so the guard's facts carry it and a
 * DataScope `own` filters in SQL. Timestamps are written by the database, in the transaction that
 * also draws the matter number, so the number's year and `created_at` agree.
 */
@Entity({ name: 'litigation_case' })
export class LitigationCaseEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** `LIT-{year}-{sequence}`, unique per tenant (uq_litigation_case_matter_number). */
  @Column({ name: 'matter_number', type: 'varchar', length: 32 })
  matterNumber!: string;

  @Column({ type: 'varchar', length: 200 })
  title!: string;

  @Column({ name: 'case_type', type: 'varchar', length: 32 })
  caseType!: CaseType;

  @Column({ name: 'claim_amount', type: 'numeric', precision: 15, scale: 2, transformer: amount })
  claimAmount!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ name: 'defendant_name', type: 'varchar', length: 200 })
  defendantName!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: CaseStatus;

  @Column({ type: 'varchar', length: 255 })
  owner!: string;

  @Column({ name: 'office_id', type: 'varchar', length: 64, nullable: true })
  officeId!: string | null;

  /** Who created it: the caller's acting subject (the actor of a delegated caller). */
  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

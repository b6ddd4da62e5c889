import { Column, CreateDateColumn, DeleteDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A job's persisted definition (specs/operations.md §2): the runtime schedule (cron or interval,
 * and Enabled) that operations owns, beside the catalog facts as last read from the owning service
 * (so the list still shows a job while its service is down). Rows are only ever created by the
 * catalog seed; a job that leaves its service's catalog is soft-deleted (`deleted_at`) and comes
 * back with its schedule if it returns. The CHECK constraints of the migration hold the §2
 * invariants even against a buggy writer.
 */
@Entity({ name: 'job_definition' })
export class JobDefinitionEntity {
  @PrimaryColumn({ name: 'job_name', type: 'varchar', length: 128 })
  jobName!: string;

  @Column({ type: 'varchar', length: 160, nullable: true })
  cron!: string | null;

  @Column({ name: 'interval_seconds', type: 'integer', nullable: true })
  intervalSeconds!: number | null;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  /** The owning service (catalog Source): its queue runs the job. */
  @Column({ type: 'varchar', length: 64 })
  source!: string;

  @Column({ type: 'varchar', length: 500 })
  description!: string;

  @Column({ name: 'module_name', type: 'varchar', length: 128 })
  moduleName!: string;

  @Column({ name: 'is_critical', type: 'boolean' })
  isCritical!: boolean;

  @Column({ name: 'default_cron', type: 'varchar', length: 160, nullable: true })
  defaultCron!: string | null;

  @Column({ name: 'default_interval_seconds', type: 'integer', nullable: true })
  defaultIntervalSeconds!: number | null;

  @Column({ name: 'timeout_seconds', type: 'integer' })
  timeoutSeconds!: number;

  /** The next tick the scheduler will claim; null while disabled or unscheduled. */
  @Column({ name: 'next_run_at', type: 'timestamptz', nullable: true })
  nextRunAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}

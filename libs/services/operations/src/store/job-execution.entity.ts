import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { JobTrigger } from '@lp/contracts';

/**
 * `running` until the owner answers; `skipped` when a tick came while the job's previous run was
 * still going (runs of one job never overlap); `abandoned` when a run's lease ran out without an
 * answer (the dispatching replica died).
 */
export type JobExecutionStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'abandoned';
export const JOB_EXECUTION_STATUSES: readonly JobExecutionStatus[] = ['running', 'succeeded', 'failed', 'skipped', 'abandoned'];

/**
 * The execution audit (specs/operations.md §6): one row per run, scheduled or manual. A scheduled
 * run's row is unique per (job, tick), so a tick can never be run twice even if two replicas both
 * believed they had claimed it.
 */
@Entity({ name: 'job_execution' })
@Index('ix_job_execution_job_started', ['jobName', 'startedAt'])
export class JobExecutionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'job_name', type: 'varchar', length: 128 })
  jobName!: string;

  @Column({ type: 'varchar', length: 16 })
  trigger!: JobTrigger;

  @Column({ type: 'varchar', length: 16 })
  status!: JobExecutionStatus;

  /** The tick of a scheduled run; null for a manual one. */
  @Column({ name: 'scheduled_for', type: 'timestamptz', nullable: true })
  scheduledFor!: Date | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** When the owning service's binding started, as it reported (absent when it did not answer). */
  @Column({ name: 'owner_started_at', type: 'timestamptz', nullable: true })
  ownerStartedAt!: Date | null;

  /** Until when a `running` row is presumed alive; past it, the reconcile marks it `abandoned`. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  @Column({ name: 'error_code', type: 'varchar', length: 128, nullable: true })
  errorCode!: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  detail!: string | null;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId!: string | null;

  /** Who ran it: the person's subject for a manual run, the scheduler's client id otherwise. */
  @Column({ type: 'varchar', length: 255 })
  actor!: string;

  /** Which operations instance dispatched it (host:pid), for tracing a run across replicas. */
  @Column({ name: 'dispatched_by', type: 'varchar', length: 255 })
  dispatchedBy!: string;
}

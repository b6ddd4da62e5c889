import { Injectable, Logger } from '@nestjs/common';
import { DataSource, LessThan } from 'typeorm';
import { JobRunResult, TrustedCaller } from '@lp/contracts';
import { jobRuns } from '@lp/platform/observability';
import { JobDefinitionEntity, JobExecutionEntity } from '../store';

/** Leeway past a run's own timeout before a `running` row counts as abandoned. */
const LEASE_GRACE_MS = 30_000;

/** How a run ended, as the audit records it. */
export type RunEnd = { result: JobRunResult } | { error: { code: string; detail: string } };

/**
 * The execution audit (`ops.job_execution`, spec §6). Writing it must never change a run's
 * outcome: a failing sink logs a warning and the run goes on (and answers) as it would have.
 */
@Injectable()
export class JobExecutionAudit {
  private readonly logger = new Logger(JobExecutionAudit.name);

  constructor(private readonly dataSource: DataSource) {}

  /** The row of a run about to start (not yet written). */
  static newRow(
    definition: JobDefinitionEntity,
    run: { id: string; trigger: 'schedule' | 'manual'; scheduledFor: Date | null; actor: string; correlationId: string | null; dispatchedBy: string },
    now: Date,
  ): JobExecutionEntity {
    return Object.assign(new JobExecutionEntity(), {
      id: run.id,
      jobName: definition.jobName,
      trigger: run.trigger,
      status: 'running',
      scheduledFor: run.scheduledFor,
      startedAt: now,
      finishedAt: null,
      ownerStartedAt: null,
      leaseUntil: new Date(now.getTime() + definition.timeoutSeconds * 1000 + LEASE_GRACE_MS),
      errorCode: null,
      detail: null,
      correlationId: run.correlationId,
      actor: run.actor,
      dispatchedBy: run.dispatchedBy,
    });
  }

  static actorOf(caller: TrustedCaller): string {
    return caller.kind === 'delegated' && caller.actor ? `${caller.actor} for ${caller.subject}` : caller.subject;
  }

  async started(row: JobExecutionEntity): Promise<void> {
    try {
      await this.dataSource.getRepository(JobExecutionEntity).insert(row);
    } catch (error) {
      this.logger.warn(`execution audit of ${row.jobName} (${row.id}) could not record the start: ${describe(error)}`);
    }
  }

  async finished(row: JobExecutionEntity, end: RunEnd, now: Date): Promise<JobExecutionEntity> {
    const done = Object.assign(new JobExecutionEntity(), row, {
      finishedAt: now,
      leaseUntil: null,
      ...('result' in end
        ? {
            status: end.result.status,
            errorCode: end.result.errorCode ?? null,
            detail: clip(end.result.detail),
            ownerStartedAt: end.result.startedAt ? new Date(end.result.startedAt) : null,
          }
        : { status: 'failed', errorCode: end.error.code, detail: clip(end.error.detail) }),
    });
    try {
      await this.dataSource
        .getRepository(JobExecutionEntity)
        .update(
          { id: row.id, status: 'running' },
          { status: done.status, finishedAt: now, leaseUntil: null, errorCode: done.errorCode, detail: done.detail, ownerStartedAt: done.ownerStartedAt },
        );
    } catch (error) {
      this.logger.warn(`execution audit of ${row.jobName} (${row.id}) could not record the end (${done.status}): ${describe(error)}`);
    }
    jobRuns.inc({ job_name: row.jobName, status: done.status });
    return done;
  }

  /** Runs whose lease ran out without an answer: their dispatcher died. Marked so, never left `running`. */
  async abandonExpired(now: Date): Promise<number> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(JobExecutionEntity)
      .set({
        status: 'abandoned',
        finishedAt: now,
        leaseUntil: null,
        errorCode: 'Job.Abandoned',
        detail: 'no answer before the lease ran out: the dispatching operations instance stopped',
      })
      .where({ status: 'running', leaseUntil: LessThan(now) })
      // The jobs' names, for the runs metric (an UPDATE's affected count alone does not say which).
      .returning(['jobName'])
      .execute();
    const rows = (Array.isArray(result.raw) ? result.raw : []) as Array<{ job_name?: string; jobName?: string }>;
    for (const row of rows) jobRuns.inc({ job_name: row.job_name ?? row.jobName ?? 'unknown', status: 'abandoned' });
    return result.affected ?? rows.length;
  }

  async page(jobName: string, pageIndex: number, pageSize: number): Promise<[JobExecutionEntity[], number]> {
    return this.dataSource.getRepository(JobExecutionEntity).findAndCount({
      where: { jobName },
      order: { startedAt: 'DESC', id: 'DESC' },
      skip: pageIndex * pageSize,
      take: pageSize,
    });
  }
}

function clip(detail: string | undefined): string | null {
  if (detail === undefined) return null;
  return detail.length > 1000 ? `${detail.slice(0, 999)}…` : detail;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

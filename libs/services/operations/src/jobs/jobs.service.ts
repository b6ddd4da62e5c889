import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TrustedCaller } from '@lp/contracts';
import { Page, pageOf, pageWindow } from '@lp/platform/http';
import { CorrelationContext } from '@lp/platform/observability';
import { JobDefinitionEntity } from '../store';
import { JobExecutionResponse, ManualRunResponse } from './dto/job-execution.response';
import { JobScheduleEntryResponse } from './dto/job-schedule-entry.response';
import { ListJobsQuery } from './dto/list-jobs.query';
import { UpdateJobScheduleDto } from './dto/update-job-schedule.dto';
import { JobDefinitionRepository } from './job-definition.repository';
import { JobExecutionAudit } from './job-execution-audit';
import { JobRunner } from './job-runner';
import { requestedSchedule } from './job-schedule';
import { JobNotFoundError, ScheduleConflictError, ScheduleInvalidError, ScheduleRequiredError } from './jobs.errors';
import { executionOf, scheduleEntryOf } from './jobs.mapping';
import { DISPATCHER_ID } from './scheduler-caller';

const SCHEDULE_ERRORS = {
  conflict: () => new ScheduleConflictError(),
  invalid: (reason: string) => new ScheduleInvalidError(reason),
  required: (jobName: string) => new ScheduleRequiredError(jobName),
};

/** Job control behind the /jobs routes (specs/operations.md §3, §4, §6). */
@Injectable()
export class JobsService {
  constructor(
    private readonly definitions: JobDefinitionRepository,
    private readonly audit: JobExecutionAudit,
    private readonly runner: JobRunner,
  ) {}

  /** Every live job (the RPC `operations.jobs.list`, for the MCP gateway's `list_jobs`). */
  async list(): Promise<JobScheduleEntryResponse[]> {
    return (await this.definitions.list()).map(({ definition, lastRun }) => scheduleEntryOf(definition, lastRun));
  }

  /** A page of the live jobs, by JobName, filtered (`GET /jobs`). */
  async page(query: ListJobsQuery): Promise<Page<JobScheduleEntryResponse>> {
    const { search, source, enabled, lastRunStatus } = query;
    const [rows, totalCount] = await this.definitions.page({ search, source, enabled, lastRunStatus }, pageWindow(query));
    return pageOf(
      rows.map(({ definition, lastRun }) => scheduleEntryOf(definition, lastRun)),
      totalCount,
      query,
    );
  }

  /** One live job (`GET /jobs/{jobName}`); a soft-deleted one is 404 like an unknown one. */
  async get(jobName: string): Promise<JobScheduleEntryResponse> {
    const found = await this.definitions.findWithLastRun(jobName);
    if (!found) throw new JobNotFoundError(jobName);
    return scheduleEntryOf(found.definition, found.lastRun);
  }

  /** Replaces cron, interval and Enabled at once; nothing is written on any error. */
  async replaceSchedule(jobName: string, body: UpdateJobScheduleDto): Promise<JobScheduleEntryResponse> {
    const schedule = requestedSchedule(jobName, body, SCHEDULE_ERRORS);
    const updated = await this.definitions.replaceSchedule(jobName, schedule, body.enabled, new Date());
    if (!updated) throw new JobNotFoundError(jobName);
    return this.entry(updated);
  }

  async setEnabled(jobName: string, enabled: boolean): Promise<JobScheduleEntryResponse> {
    const updated = await this.definitions.setEnabled(jobName, enabled, new Date());
    if (updated === 'not-found') throw new JobNotFoundError(jobName);
    if (updated === 'no-schedule') throw new ScheduleRequiredError(jobName);
    return this.entry(updated);
  }

  /**
   * A manual run (spec §4, §6): the definition must exist, Enabled is not checked, no transaction
   * is held around the work. The owner decides on the caller's own permission. A business failure
   * is answered unchanged; an exception is audited as a failure and rethrown.
   */
  async run(jobName: string, caller: TrustedCaller): Promise<ManualRunResponse> {
    const definition = await this.definitions.find(jobName);
    if (!definition) throw new JobNotFoundError(jobName);
    const execution = JobExecutionAudit.newRow(
      definition,
      {
        id: randomUUID(),
        trigger: 'manual',
        scheduledFor: null,
        actor: JobExecutionAudit.actorOf(caller),
        correlationId: CorrelationContext.current() ?? null,
        dispatchedBy: DISPATCHER_ID,
      },
      new Date(),
    );
    await this.audit.started(execution);
    const outcome = await this.runner.dispatch(definition, execution, caller);
    if ('error' in outcome) throw outcome.error;
    // The owner's start time is the execution's `ownerStartedAt`; the answer keeps the binding's own result.
    const { status, errorCode, detail } = outcome.result;
    return { status, ...(errorCode !== undefined && { errorCode }), ...(detail !== undefined && { detail }), execution: executionOf(outcome.execution) };
  }

  /** The execution audit of a job, newest first; a soft-deleted job's history stays readable. */
  async executions(jobName: string, pageIndex: number, pageSize: number): Promise<Page<JobExecutionResponse>> {
    if (!(await this.definitions.everExisted(jobName))) throw new JobNotFoundError(jobName);
    const [rows, totalCount] = await this.audit.page(jobName, pageIndex, pageSize);
    return { items: rows.map(executionOf), pageIndex, pageSize, totalCount };
  }

  private async entry(definition: JobDefinitionEntity): Promise<JobScheduleEntryResponse> {
    return scheduleEntryOf(definition, await this.definitions.lastRunOf(definition.jobName));
  }
}

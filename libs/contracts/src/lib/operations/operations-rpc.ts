import { z } from 'zod';
import { rpcContract } from '../messaging/rpc-contract';
import { JOB_NAME_PATTERN, JobRunStatus, JobTrigger } from './job-catalog';

const OPERATIONS = 'operations';

export type JobExecutionState = 'running' | 'succeeded' | 'failed' | 'skipped' | 'abandoned';

/** One run in the execution audit (`GET /api/operations/jobs/{jobName}/executions` items). */
export interface JobExecutionView {
  executionId: string;
  jobName: string;
  trigger: JobTrigger;
  status: JobExecutionState;
  scheduledFor: string | null;
  startedAt: string;
  finishedAt: string | null;
  ownerStartedAt: string | null;
  errorCode: string | null;
  detail: string | null;
  correlationId: string | null;
  actor: string;
}

/** A job schedule entry as `GET /api/operations/jobs` lists it. */
export interface JobScheduleEntryView {
  jobName: string;
  source: string;
  description: string;
  moduleName: string;
  isCritical: boolean;
  cronExpression: string | null;
  enabled: boolean;
  catalogDefault: { cronExpression: string | null };
  nextRunAt: string | null;
  lastRun: {
    executionId: string;
    status: JobExecutionState;
    trigger: JobTrigger;
    startedAt: string;
    finishedAt: string | null;
    errorCode: string | null;
  } | null;
}

/** A manual run's answer: the owner's result and the execution it was audited under. */
export interface ManualJobRunView {
  status: JobRunStatus;
  errorCode?: string;
  detail?: string;
  execution: JobExecutionView;
}

/**
 * operations' job control over RPC (for the MCP gateway's tools): the same service methods,
 * permissions (`operations.jobs.view` / `operations.jobs.manage`) and audit as the /jobs routes.
 */
export const OperationsRpc = {
  listJobs: rpcContract<JobScheduleEntryView[]>()({ pattern: 'operations.jobs.list', service: OPERATIONS, payload: z.strictObject({}) }),
  runJob: rpcContract<ManualJobRunView>()({
    pattern: 'operations.jobs.trigger',
    service: OPERATIONS,
    payload: z.strictObject({ jobName: z.string().regex(JOB_NAME_PATTERN, 'jobName must be dotted lower-case: {service}.{job}').max(128) }),
  }),
} as const;

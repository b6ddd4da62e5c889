import { z } from 'zod';
// Longest cron expression a definition keeps (specs/operations.md §8), after trimming.
import { MAX_CRON_LENGTH } from './cron-rule';

/**
 * A job's default schedule as its service declares it: a cron expression (5 fields, or 6 with
 * seconds), a fixed interval in whole seconds, or none (run by hand only).
 */
export type JobSchedule = { cron: string } | { intervalSeconds: number } | null;

/**
 * One entry of the code catalog (specs/operations.md §1, fact 1): what the code owns about a job.
 * `jobName` is `{service}.{job}`, stable and unique across the fleet; `source` is the owning service
 * (whose RPC queue runs it); `moduleName` the Nest module the work lives in.
 */
export interface JobDeclaration {
  jobName: string;
  source: string;
  description: string;
  moduleName: string;
  isCritical: boolean;
  defaultSchedule: JobSchedule;
  /** How long one run may take before the dispatch gives up waiting (the run is audited as failed). */
  timeoutSeconds: number;
}

export const JOB_NAME_PATTERN = /^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/;

export const jobScheduleSchema = z.union([
  z.strictObject({ cron: z.string().trim().min(1).max(MAX_CRON_LENGTH) }),
  z.strictObject({ intervalSeconds: z.number().int().positive() }),
  z.null(),
]);

export const jobDeclarationSchema = z.strictObject({
  jobName: z.string().regex(JOB_NAME_PATTERN, 'jobName must be dotted lower-case: {service}.{job}').max(128),
  source: z.string().min(1).max(64),
  description: z.string().min(1).max(500),
  moduleName: z.string().min(1).max(128),
  isCritical: z.boolean(),
  defaultSchedule: jobScheduleSchema,
  timeoutSeconds: z.number().int().positive().max(86_400),
});

/** How a run ended, as the owning service reports it (a business failure is a result, not an exception). */
export type JobRunStatus = 'succeeded' | 'failed';

export interface JobRunResult {
  status: JobRunStatus;
  /** Stable code of a business failure (the binding's own). */
  errorCode?: string;
  /** One line for the execution audit and the operator: what the run did or why it failed. */
  detail?: string;
  /** When the owner's binding started (set by the owner's dispatcher): the scheduler's lateness is this minus the tick. */
  startedAt?: string;
}

/** What triggered a run: the scheduler's tick or a person (`POST /jobs/{jobName}/run`). */
export type JobTrigger = 'schedule' | 'manual';

export const JOB_TRIGGERS: readonly JobTrigger[] = ['schedule', 'manual'];

export const jobRunRequestSchema = z.strictObject({
  jobName: z.string().regex(JOB_NAME_PATTERN).max(128),
  trigger: z.enum(JOB_TRIGGERS as [JobTrigger, ...JobTrigger[]]),
  /** The execution row operations audits this run under, so the owner's logs name it. */
  executionId: z.string().uuid(),
  /** The tick this run is for (scheduled runs), ISO 8601. */
  scheduledFor: z.string().optional(),
});
export type JobRunRequest = z.infer<typeof jobRunRequestSchema>;

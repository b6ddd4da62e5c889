import { SetMetadata } from '@nestjs/common';
import { JobRunResult, JobTrigger } from '@lp/contracts';

export const JOB_HANDLER_METADATA = 'lp:job-handler';

/** What a job's binding is told about the run it performs. */
export interface JobRunContext {
  jobName: string;
  trigger: JobTrigger;
  /** The execution row operations audits this run under. */
  executionId: string;
  /** The tick a scheduled run is for. */
  scheduledFor?: Date;
  /** When the owning service received the request. */
  now: Date;
}

/**
 * A binding's answer: a `JobRunResult` (a business failure is `{ status: 'failed', errorCode }`,
 * returned, not thrown), a one-line detail of a success, or nothing. A thrown error is a failure
 * the execution audit records as such.
 */
export type JobOutcome = JobRunResult | string | void;

export type JobRun = (context: JobRunContext) => Promise<JobOutcome>;

/**
 * Binds a provider method to a job of the service's catalog, by its full JobName. The dispatcher
 * checks at boot that every catalog entry has exactly one binding and every binding an entry.
 */
export function JobHandler(jobName: string): MethodDecorator {
  return SetMetadata(JOB_HANDLER_METADATA, jobName);
}

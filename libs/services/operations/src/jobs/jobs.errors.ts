import { DomainError, NotFoundError } from '@lp/contracts';

/** No definition under that JobName: not in any catalog, never seeded, or soft-deleted (spec §7). */
export class JobNotFoundError extends NotFoundError {
  constructor(jobName: string) {
    super(`Job ${jobName}`);
  }
}

/** Cron and interval both supplied (spec §7). */
export class ScheduleConflictError extends DomainError {
  constructor() {
    super('ScheduleConflict', 409, 'A job has either a cron expression or an interval, not both.');
  }
}

/** Enabling, or starting, a definition that has no schedule (spec §7). */
export class ScheduleRequiredError extends DomainError {
  constructor(jobName: string) {
    super('ScheduleRequired', 422, `Job ${jobName} cannot be enabled without a schedule: set a cron expression or an interval first.`);
  }
}

/** A cron expression that is too long or cannot be parsed (the spec leaves syntax unchecked; we check it). */
export class ScheduleInvalidError extends DomainError {
  constructor(reason: string) {
    super('ScheduleInvalid', 400, `The cron expression is not valid: ${reason}.`, { cronExpression: [reason] });
  }
}

/** The owning service did not answer the run in time; the run is audited as failed. */
export class JobRunTimeoutError extends DomainError {
  constructor(jobName: string, timeoutSeconds: number) {
    super('Job.Timeout', 504, `Job ${jobName} did not finish within ${timeoutSeconds} s; its execution is recorded as failed.`);
  }
}

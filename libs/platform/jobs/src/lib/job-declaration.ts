import { JOB_NAME_PATTERN, JobDeclaration, JobSchedule, MAX_CRON_LENGTH } from '@lp/contracts';

export interface JobDeclarationInput {
  /** The owning service: its RPC queue runs the job. */
  service: string;
  /** The job's own name inside the service; the catalog's JobName is `{service}.{name}`. */
  name: string;
  description: string;
  /** The Nest module the work lives in (the catalog's ModuleName). */
  moduleName: string;
  /** A critical job's failures page someone: list it first, alert on it. */
  isCritical?: boolean;
  schedule: JobSchedule;
  /** Longest a run may take; default 300 s. */
  timeoutSeconds?: number;
}

const DEFAULT_TIMEOUT_SECONDS = 300;

/**
 * One code-catalog entry, declared where the job's work lives (a `*.jobs.ts` beside the module) and
 * listed in the service definition's `jobs`. Checked at load time, so a malformed declaration fails
 * the build's first test rather than the first scheduled run.
 */
export function declareJob(input: JobDeclarationInput): JobDeclaration {
  const jobName = `${input.service}.${input.name}`;
  if (!JOB_NAME_PATTERN.test(jobName)) throw new Error(`Job name ${JSON.stringify(jobName)} must be dotted lower-case: {service}.{job}`);
  const schedule = input.schedule;
  if (schedule && 'cron' in schedule && (schedule.cron.trim() === '' || schedule.cron.trim().length > MAX_CRON_LENGTH)) {
    throw new Error(`Job ${jobName}: cron must be 1 to ${MAX_CRON_LENGTH} characters`);
  }
  if (schedule && 'intervalSeconds' in schedule && !(Number.isInteger(schedule.intervalSeconds) && schedule.intervalSeconds > 0)) {
    throw new Error(`Job ${jobName}: intervalSeconds must be a positive integer`);
  }
  return {
    jobName,
    source: input.service,
    description: input.description,
    moduleName: input.moduleName,
    isCritical: input.isCritical ?? false,
    defaultSchedule: schedule && 'cron' in schedule ? { cron: schedule.cron.trim() } : schedule,
    timeoutSeconds: input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
}

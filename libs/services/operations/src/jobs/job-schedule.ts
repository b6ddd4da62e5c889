import { CronExpressionParser } from 'cron-parser';
import { cronProblem, JobSchedule } from '@lp/contracts';

/** The runtime schedule a definition holds: at most one of cron and interval (spec §2). */
export interface StoredSchedule {
  cron: string | null;
  intervalSeconds: number | null;
}

/**
 * The schedule entry's `CronExpression` (spec §2): the cron expression, `interval:{seconds}s` for an
 * interval, or null when unscheduled. Clients test the `interval:` prefix first.
 */
export function cronExpressionOf(schedule: StoredSchedule): string | null {
  if (schedule.cron !== null) return schedule.cron;
  if (schedule.intervalSeconds !== null) return `interval:${schedule.intervalSeconds}s`;
  return null;
}

export function storedScheduleOf(schedule: JobSchedule): StoredSchedule {
  if (schedule === null) return { cron: null, intervalSeconds: null };
  return 'cron' in schedule ? { cron: schedule.cron.trim(), intervalSeconds: null } : { cron: null, intervalSeconds: schedule.intervalSeconds };
}

/**
 * How late a tick may still run. A tick missed by less (a slow pass, a replica restarting) runs late,
 * one per pass, so every tick of a short interval is kept; ticks missed by more (no scheduler ran
 * for a while) are skipped, not replayed as a burst: the job runs at its next tick.
 */
export const MISFIRE_THRESHOLD_MS = 60_000;

/**
 * The tick after `previous` (the one just claimed), or, without one or when that tick is older than
 * the misfire threshold, the first tick after `now`. An interval counts from the tick it follows, so
 * runs do not drift by the scheduler's own lateness. Cron is read in UTC. Null when unscheduled.
 */
export function nextTick(schedule: StoredSchedule, now: Date, previous?: Date): Date | null {
  const following = (after: Date): Date | null => {
    if (schedule.cron !== null) return CronExpressionParser.parse(schedule.cron, { currentDate: after, tz: 'UTC' }).next().toDate();
    if (schedule.intervalSeconds !== null) return new Date(after.getTime() + schedule.intervalSeconds * 1000);
    return null;
  };
  if (previous) {
    const candidate = following(previous);
    if (candidate === null || candidate.getTime() >= now.getTime() - MISFIRE_THRESHOLD_MS) return candidate;
  }
  return following(now);
}

const INTERVAL_RENDERING = /^interval:(\d+)s$/;

/**
 * The schedule a `PUT /jobs/{jobName}` asks for, checked in the spec's order of errors: both set →
 * ScheduleConflict; an unreadable cron → ScheduleInvalid; enabling with none → ScheduleRequired.
 * (A non-positive or fractional interval is refused earlier, by the body's validation.)
 */
export function requestedSchedule(
  jobName: string,
  body: { cronExpression?: string | null; intervalSeconds?: number | null; enabled: boolean },
  errors: { conflict: () => Error; invalid: (reason: string) => Error; required: (jobName: string) => Error },
): StoredSchedule {
  let cron = body.cronExpression?.trim() || null;
  let intervalSeconds = body.intervalSeconds ?? null;
  const rendered = cron === null ? null : INTERVAL_RENDERING.exec(cron);
  if (rendered) {
    if (intervalSeconds !== null) throw errors.conflict();
    intervalSeconds = Number(rendered[1]);
    cron = null;
    if (!(intervalSeconds > 0) || !Number.isSafeInteger(intervalSeconds))
      throw errors.invalid('the interval of `interval:{seconds}s` must be a positive integer');
  }
  if (cron !== null && intervalSeconds !== null) throw errors.conflict();
  if (cron !== null) {
    const problem = cronProblem(cron);
    if (problem) throw errors.invalid(problem);
  }
  if (body.enabled && cron === null && intervalSeconds === null) throw errors.required(jobName);
  return { cron, intervalSeconds };
}

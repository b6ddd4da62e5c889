import { CronExpressionParser } from 'cron-parser';

// The operations API's cron dialect, the same file the API validates with: the form judges an
// expression as it is typed; the API stays the judge (its 400 `ScheduleInvalid` on save is shown
// next to the field).
export { cronProblem, MAX_CRON_LENGTH } from '@lp/contracts/cron-rule';

/** The list's rendering of an interval schedule (`interval:{seconds}s`); clients test it before cron. */
const INTERVAL_RENDERING = /^interval:(\d+)s$/;

/** A schedule entry's `cronExpression`, read: a cron, an interval, or none. */
export type Schedule = { kind: 'cron'; cron: string } | { kind: 'interval'; seconds: number } | { kind: 'none' };

export function scheduleOf(cronExpression: string | null): Schedule {
  if (cronExpression === null || cronExpression.trim() === '') return { kind: 'none' };
  const interval = INTERVAL_RENDERING.exec(cronExpression);
  if (interval) return { kind: 'interval', seconds: Number(interval[1]) };
  return { kind: 'cron', cron: cronExpression };
}

/** What a person reads for a schedule: the cron itself, "every 1 min", or "no schedule". */
export function describeSchedule(cronExpression: string | null): string {
  const schedule = scheduleOf(cronExpression);
  if (schedule.kind === 'cron') return schedule.cron;
  if (schedule.kind === 'interval') return `every ${durationText(schedule.seconds * 1000)}`;
  return 'no schedule';
}

/** The next `count` ticks of a valid cron after `from`, read in UTC as the scheduler does. */
export function nextRuns(cron: string, count: number, from: Date): { runs: Date[] } | { problem: string } {
  try {
    const expression = CronExpressionParser.parse(cron, { currentDate: from, tz: 'UTC' });
    const runs: Date[] = [];
    while (runs.length < count && expression.hasNext()) runs.push(expression.next().toDate());
    return { runs };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** A duration as people say it: 850 ms, 4.2 s, 3 min 5 s, 2 h 10 min, 3 d 4 h. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const seconds = Math.round(ms / 1000);
  const [d, h, m, s] = [Math.floor(seconds / 86_400), Math.floor((seconds % 86_400) / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const parts = d > 0 ? [`${d} d`, h > 0 && `${h} h`] : h > 0 ? [`${h} h`, m > 0 && `${m} min`] : [`${m} min`, s > 0 && `${s} s`];
  return parts.filter(Boolean).join(' ');
}

/** A time in UTC, the zone the API reads cron in: `2026-03-02 02:30:00 UTC` (weekday first). */
export function utcText(date: Date): string {
  const weekday = date.toLocaleDateString('en-GB', { weekday: 'short', timeZone: 'UTC' });
  return `${weekday} ${date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '')} UTC`;
}

import { CronExpressionParser } from 'cron-parser';

/**
 * The cron dialect of job schedules, defined once: the operations API validates with it and the
 * admin console judges an expression with it as it is typed (the console imports this file alone,
 * so it must stay free of Node-only imports).
 */
/** Longest cron expression a definition keeps (specs/operations.md §8), after trimming. */
export const MAX_CRON_LENGTH = 160;

/** Why a cron expression (already trimmed) is refused: 5 fields, or 6 with seconds first, read by cron-parser in UTC; null when it is fine. */
export function cronProblem(cron: string): string | null {
  if (cron.length > MAX_CRON_LENGTH) return `must be at most ${MAX_CRON_LENGTH} characters after trimming`;
  const fields = cron.split(/\s+/).length;
  if (fields < 5 || fields > 6) return `must have 5 fields (minute hour day month weekday) or 6 (with seconds first); got ${fields}`;
  try {
    CronExpressionParser.parse(cron, { tz: 'UTC' });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

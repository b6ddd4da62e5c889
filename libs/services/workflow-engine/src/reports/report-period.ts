import { ReportPeriodInvalidError, ReportPeriodTooLongError } from './report-errors';

const DAY_MS = 86_400_000;

/** The longest period one report request reads (a year, leap day included). */
export const MAX_PERIOD_DAYS = 366;
/** Hourly trends stop at a month, so a trend answers at most 744 buckets. */
export const MAX_HOURLY_PERIOD_DAYS = 31;
/** The period of a report whose query names none (trends always needs one). */
export const DEFAULT_PERIOD_DAYS = 30;

/** A half-open period [from, to) in UTC. */
export interface ReportPeriod {
  from: Date;
  to: Date;
}

export const GRANULARITIES = ['Hourly', 'Daily', 'Weekly', 'Monthly'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
/** The PostgreSQL `date_trunc` field (and interval unit) of each granularity. */
export const TRUNC_UNIT: Record<Granularity, 'hour' | 'day' | 'week' | 'month'> = { Hourly: 'hour', Daily: 'day', Weekly: 'week', Monthly: 'month' };

/**
 * An ISO 8601 date (`2026-03-01`, midnight UTC) or date-time with or without an offset; a date-time
 * without one is read as UTC (never the server's local time, which would make answers depend on the host).
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

export function parseInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_INSTANT.exec(value.trim());
  if (!match) return undefined;
  const [, , month, day, hour, minute, second, offset] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return undefined;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59)) return undefined;
  let text = value.trim().replace(' ', 'T');
  if (hour !== undefined && offset === undefined) text += 'Z';
  // Normalise a compact offset (+0200) to the form Date.parse reads in every engine (+02:00).
  text = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March: a day the month does not have is unparseable.
  if (hour === undefined && new Date(ms).toISOString().slice(0, 10) !== value.trim()) return undefined;
  return new Date(ms);
}

/**
 * The period of a report query. Both bounds are required for trends (spec §2); the other reports
 * default to the last DEFAULT_PERIOD_DAYS days up to `now` (a missing `From` is `To` minus that).
 * Missing (when required), unparseable or From later than To: 400 Workflow.Report.PeriodInvalid;
 * longer than `maxDays`: 400 Workflow.Report.PeriodTooLong.
 */
export function resolvePeriod(query: { From?: unknown; To?: unknown }, options: { required: boolean; now: Date; maxDays?: number }): ReportPeriod {
  const maxDays = options.maxDays ?? MAX_PERIOD_DAYS;
  const bound = (name: 'From' | 'To'): Date | undefined => {
    const raw = query[name];
    if (raw === undefined || raw === null || raw === '') {
      if (options.required) throw new ReportPeriodInvalidError(`${name} is required: an ISO 8601 date or date-time.`);
      return undefined;
    }
    const parsed = parseInstant(raw);
    if (!parsed) throw new ReportPeriodInvalidError(`${name} is not an ISO 8601 date or date-time (e.g. 2026-03-01 or 2026-03-01T08:00:00Z).`);
    return parsed;
  };
  const given = { from: bound('From'), to: bound('To') };
  const to = given.to ?? options.now;
  const from = given.from ?? new Date(to.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (from.getTime() > to.getTime()) throw new ReportPeriodInvalidError(`From (${from.toISOString()}) is later than To (${to.toISOString()}).`);
  if (to.getTime() - from.getTime() > maxDays * DAY_MS) {
    throw new ReportPeriodTooLongError(`The period spans more than ${maxDays} days; ask for a shorter one.`);
  }
  return { from, to };
}

/** Hourly, Daily, Weekly or Monthly (any letter case); anything else, absent included, is Daily (spec §2). */
export function granularityOf(value: unknown): Granularity {
  if (typeof value !== 'string') return 'Daily';
  return GRANULARITIES.find((g) => g.toLowerCase() === value.trim().toLowerCase()) ?? 'Daily';
}

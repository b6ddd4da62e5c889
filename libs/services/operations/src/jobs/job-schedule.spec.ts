import { cronProblem } from '@lp/contracts';
import { cronExpressionOf, MISFIRE_THRESHOLD_MS, nextTick, requestedSchedule } from './job-schedule';

const errors = {
  conflict: () => new Error('ScheduleConflict'),
  invalid: (reason: string) => new Error(`ScheduleInvalid: ${reason}`),
  required: () => new Error('ScheduleRequired'),
};
const at = (iso: string) => new Date(iso);

describe('job schedules', () => {
  it('renders a schedule as the spec lists it: the cron, interval:{n}s, or null', () => {
    expect(cronExpressionOf({ cron: '0 3 * * *', intervalSeconds: null })).toBe('0 3 * * *');
    expect(cronExpressionOf({ cron: null, intervalSeconds: 90 })).toBe('interval:90s');
    expect(cronExpressionOf({ cron: null, intervalSeconds: null })).toBeNull();
  });

  it('reads 5- and 6-field cron and refuses the rest with a reason', () => {
    expect(cronProblem('*/5 * * * *')).toBeNull();
    expect(cronProblem('*/10 * * * * *')).toBeNull();
    expect(cronProblem('* * *')).toMatch(/5 fields/);
    expect(cronProblem('61 * * * *')).toEqual(expect.any(String));
    expect(cronProblem('1 '.repeat(81).trim())).toMatch(/160/);
  });

  it('checks a PUT body in the spec order: conflict, then syntax, then enabling without a schedule', () => {
    expect(() => requestedSchedule('j', { cronExpression: 'nonsense', intervalSeconds: 5, enabled: true }, errors)).toThrow('ScheduleConflict');
    expect(() => requestedSchedule('j', { cronExpression: 'nonsense', enabled: true }, errors)).toThrow(/ScheduleInvalid/);
    expect(() => requestedSchedule('j', { cronExpression: '   ', enabled: true }, errors)).toThrow('ScheduleRequired');
    expect(() => requestedSchedule('j', { cronExpression: 'interval:30s', intervalSeconds: 30, enabled: true }, errors)).toThrow('ScheduleConflict');
    expect(requestedSchedule('j', { cronExpression: '  0 1 * * *  ', enabled: true }, errors)).toEqual({ cron: '0 1 * * *', intervalSeconds: null });
    expect(requestedSchedule('j', { cronExpression: 'interval:30s', enabled: true }, errors)).toEqual({ cron: null, intervalSeconds: 30 });
    expect(requestedSchedule('j', { enabled: false }, errors)).toEqual({ cron: null, intervalSeconds: null });
  });

  it('counts an interval from the tick it follows, so lateness does not drift the schedule', () => {
    const every10 = { cron: null, intervalSeconds: 10 };
    expect(nextTick(every10, at('2026-01-01T00:00:00.000Z'))).toEqual(at('2026-01-01T00:00:10.000Z'));
    expect(nextTick(every10, at('2026-01-01T00:00:03.700Z'), at('2026-01-01T00:00:00.000Z'))).toEqual(at('2026-01-01T00:00:10.000Z'));
  });

  it('runs a tick missed by less than the misfire threshold late, and skips ticks missed by more', () => {
    const every1 = { cron: null, intervalSeconds: 1 };
    const previous = at('2026-01-01T00:00:00.000Z');
    const slightlyLate = new Date(previous.getTime() + 5_000);
    expect(nextTick(every1, slightlyLate, previous)).toEqual(at('2026-01-01T00:00:01.000Z'));
    const longGone = new Date(previous.getTime() + MISFIRE_THRESHOLD_MS + 5_500);
    expect(nextTick(every1, longGone, previous)).toEqual(new Date(longGone.getTime() + 1_000));
  });

  it('reads cron in UTC', () => {
    expect(nextTick({ cron: '30 2 * * *', intervalSeconds: null }, at('2026-03-01T05:00:00Z'))).toEqual(at('2026-03-02T02:30:00.000Z'));
    expect(nextTick({ cron: '30 2 * * *', intervalSeconds: null }, at('2026-03-02T03:00:00Z'), at('2026-03-02T02:30:00Z'))).toEqual(
      at('2026-03-03T02:30:00.000Z'),
    );
    expect(nextTick({ cron: null, intervalSeconds: null }, at('2026-03-01T05:00:00Z'))).toBeNull();
  });
});

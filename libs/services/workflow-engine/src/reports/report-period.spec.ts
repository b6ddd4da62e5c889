import { granularityOf, parseInstant, resolvePeriod } from './report-period';

const now = new Date('2026-06-15T12:00:00Z');
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('report period', () => {
  it.each([
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T08:30:00Z', '2026-03-01T08:30:00.000Z'],
    ['2026-03-01T08:30', '2026-03-01T08:30:00.000Z'],
    ['2026-03-01T08:30:00+02:00', '2026-03-01T06:30:00.000Z'],
    ['2026-03-01T08:30:00+0200', '2026-03-01T06:30:00.000Z'],
    ['2026-03-01 08:30:00.123456Z', '2026-03-01T08:30:00.123Z'],
  ])('reads %s as %s (no offset: UTC)', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each(['', 'yesterday', '2026-02-30', '2026-13-01', '2026-03-01T25:00Z', '1710000000', '2026-3-1', '+002026-03-01'])('refuses %p', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });

  it('refuses values that are not strings', () => {
    for (const value of [1710000000, null, {}, [], true]) expect(parseInstant(value)).toBeUndefined();
  });

  it('requires both bounds for trends, and From not later than To', () => {
    expect(codeOf(() => resolvePeriod({ To: '2026-03-01' }, { required: true, now }))).toBe('Workflow.Report.PeriodInvalid');
    expect(codeOf(() => resolvePeriod({ From: '2026-03-01' }, { required: true, now }))).toBe('Workflow.Report.PeriodInvalid');
    expect(codeOf(() => resolvePeriod({ From: '2026-03-02', To: '2026-03-01' }, { required: true, now }))).toBe('Workflow.Report.PeriodInvalid');
    expect(codeOf(() => resolvePeriod({ From: 'soon', To: '2026-03-01' }, { required: true, now }))).toBe('Workflow.Report.PeriodInvalid');
    expect(codeOf(() => resolvePeriod({ From: '2026-03-01', To: '2026-03-01' }, { required: true, now }))).toBe('ok');
  });

  it('defaults the other reports to the 30 days up to now, or up to To', () => {
    expect(resolvePeriod({}, { required: false, now })).toEqual({ from: new Date('2026-05-16T12:00:00Z'), to: now });
    expect(resolvePeriod({ To: '2026-03-31' }, { required: false, now })).toEqual({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-31T00:00:00Z'),
    });
  });

  it('refuses a period over the maximum span', () => {
    expect(codeOf(() => resolvePeriod({ From: '2025-01-01', To: '2026-01-02' }, { required: true, now }))).toBe('ok');
    expect(codeOf(() => resolvePeriod({ From: '2025-01-01', To: '2026-01-03' }, { required: true, now }))).toBe('Workflow.Report.PeriodTooLong');
    expect(codeOf(() => resolvePeriod({ From: '2026-01-01', To: '2026-02-02' }, { required: true, now, maxDays: 31 }))).toBe('Workflow.Report.PeriodTooLong');
  });

  it('falls back to Daily for an unrecognized granularity', () => {
    expect(granularityOf('Hourly')).toBe('Hourly');
    expect(granularityOf(' monthly ')).toBe('Monthly');
    expect(granularityOf('WEEKLY')).toBe('Weekly');
    for (const value of ['Yearly', '', undefined, 3, null, ['Hourly']]) expect(granularityOf(value)).toBe('Daily');
  });
});

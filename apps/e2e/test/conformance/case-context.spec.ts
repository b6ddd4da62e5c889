import { CaseContext, CLOCK_STEP_MS, corpusTimeMap, FUTURE_MARGIN_MS, realTime } from './case-context';

describe('conformance case translation', () => {
  const base = Date.parse('2030-01-01T00:00:00.000Z');

  it('maps case time onto real time strictly increasingly, compressing the clock range to one step per instant', () => {
    const instants = [
      '2026-06-01T11:00:00.000Z',
      '2026-06-01T12:10:00.000Z',
      '2026-06-01T12:20:00.000Z',
      '2026-06-01T12:20:00.001Z',
      '2026-06-01T13:00:00.000Z',
    ];
    const clocks = ['2026-06-01T12:00:00.000Z', '2026-06-01T12:19:59.999Z', '2026-06-01T12:20:00.000Z'];
    const time = corpusTimeMap(instants, clocks, base);
    expect(time.realMs('2026-06-01T11:00:00.000Z')).toBe(base - 3_600_000);
    expect(time.realMs('2026-06-01T12:00:00.000Z')).toBe(base);
    expect(time.realMs('2026-06-01T12:10:00.000Z')).toBe(base + CLOCK_STEP_MS);
    expect(time.realMs('2026-06-01T12:19:59.999Z')).toBe(base + 2 * CLOCK_STEP_MS);
    expect(time.realMs('2026-06-01T12:20:00.000Z')).toBe(base + 3 * CLOCK_STEP_MS);
    expect(time.realMs('2026-06-01T12:20:00.001Z')).toBe(base + 3 * CLOCK_STEP_MS + FUTURE_MARGIN_MS + 1);
    const sorted = [...instants, ...clocks].sort();
    const mapped = sorted.map((i) => time.realMs(i));
    expect(mapped).toEqual([...mapped].sort((a, b) => a - b));
    expect(new Set(mapped).size).toBe(new Set(sorted).size);
  });

  it('gives each case its own tenants and uuids that sort like the corpus ids', () => {
    const a = new CaseContext('a.json\u0000one', ['z-allow', 'a-deny', 'dg-1', 'dg-10'], realTime);
    const b = new CaseContext('a.json\u0000two', ['a-deny'], realTime);
    expect(a.tenant('t1')).not.toBe(b.tenant('t1'));
    expect(a.tenant('t1')).not.toBe(a.tenant('t2'));
    expect(a.tenant('')).toBe('');
    expect(a.id('a-deny')).not.toBe(b.id('a-deny'));
    expect(a.id('a-deny') < a.id('z-allow')).toBe('a-deny' < 'z-allow');
    expect(a.id('dg-1') < a.id('dg-10')).toBe(true);
    expect(a.id('a-deny')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('rewrites whole ids and instants in expected reasons, nothing else', () => {
    const time = corpusTimeMap([], ['2026-06-01T12:00:00.000Z'], base);
    const ctx = new CaseContext('x', ['dg-1', 'dg-10'], time);
    expect(ctx.text('delegated grant dg-1 (actor bob, expires 2026-06-01T12:00:00.000Z); dg-10; xdg-1; dg-1x')).toBe(
      `delegated grant ${ctx.id('dg-1')} (actor bob, expires ${new Date(base).toISOString()}); ${ctx.id('dg-10')}; xdg-1; dg-1x`,
    );
  });
});

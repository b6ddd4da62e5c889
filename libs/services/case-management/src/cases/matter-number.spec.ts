import { MATTER_NUMBER_PATTERN } from '@lp/contracts';
import { formatMatterNumber, parseMatterNumber } from './matter-number';

describe('matter numbers', () => {
  it.each<[number, number, string]>([
    [2026, 1, 'LIT-2026-000001'],
    [2026, 123, 'LIT-2026-000123'],
    [2026, 999_999, 'LIT-2026-999999'],
    [2027, 1_000_000, 'LIT-2027-1000000'],
  ])('year %d, sequence %d → %s', (year, sequence, expected) => {
    const number = formatMatterNumber(year, sequence);
    expect(number).toBe(expected);
    expect(number).toMatch(MATTER_NUMBER_PATTERN);
    expect(parseMatterNumber(number)).toEqual({ year, sequence });
  });

  it('sorts by sequence within a year while the sequence has six digits', () => {
    const numbers = [1, 9, 10, 99, 100, 123_456].map((n) => formatMatterNumber(2026, n));
    expect([...numbers].sort()).toEqual(numbers);
  });

  it.each<[number, number]>([
    [2026, 0],
    [2026, -1],
    [2026, 1.5],
    [2026, Number.NaN],
    [99, 1],
    [10_000, 1],
    [2026.5, 1],
  ])('refuses year %d with sequence %d', (year, sequence) => {
    expect(() => formatMatterNumber(year, sequence)).toThrow(RangeError);
  });

  it.each(['LIT-26-000001', 'LIT-2026-00001', 'lit-2026-000001', 'LIT-2026-000001 ', 'CASE-2026-000001', ''])(
    'does not read %j as a matter number',
    (value) => {
      expect(parseMatterNumber(value)).toBeUndefined();
    },
  );
});

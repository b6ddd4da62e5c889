import { parseRetryAfter } from './retry-after';

const now = new Date('2026-11-27T10:00:00.000Z');

describe('parseRetryAfter', () => {
  it.each<[string, string | string[] | undefined, number | undefined]>([
    ['delta-seconds', '120', 120_000],
    ['zero', '0', 0],
    ['surrounding spaces', ' 7 ', 7_000],
    ['IMF-fixdate ahead', 'Fri, 27 Nov 2026 10:01:30 GMT', 90_000],
    ['RFC 850 date ahead', 'Friday, 27-Nov-26 10:00:05 GMT', 5_000],
    ['asctime date ahead', 'Fri Nov 27 10:00:02 2026', 2_000],
    ['date in the past, clamped', 'Thu, 26 Nov 2026 10:00:00 GMT', 0],
    ['first of repeated headers', ['3', '9'], 3_000],
    ['absent', undefined, undefined],
    ['empty', '', undefined],
    ['negative', '-5', undefined],
    ['fraction', '1.5', undefined],
    ['garbage', 'soon', undefined],
    ['ISO date (not an HTTP date)', '2026-11-27T10:01:00Z', undefined],
    ['invalid date', 'Fri, 99 Foo 2026 99:99:99 GMT', undefined],
    ['too large', '9'.repeat(30), undefined],
  ])('%s', (_label, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

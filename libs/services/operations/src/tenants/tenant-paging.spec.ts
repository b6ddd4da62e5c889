import { normalizeTenantPage, tenantPageOffset } from './tenant-paging';

describe('tenant paging (specs/operations.md §8)', () => {
  it.each<[unknown, unknown, number, number, string]>([
    // [pageIndex, pageSize, expected index, expected size, §8 row]
    [undefined, undefined, 0, 20, 'defaults: index 0, size 20'],
    ['3', '50', 3, 50, 'values in range are kept'],
    ['-1', '10', 0, 10, 'a negative index becomes 0'],
    ['-999', undefined, 0, 20, 'a negative index becomes 0'],
    ['0', '0', 0, 20, 'size 0 becomes 20'],
    ['0', '-5', 0, 20, 'a negative size becomes 20'],
    ['0', '1', 0, 1, 'size 1 is kept'],
    ['0', '100', 0, 100, 'size 100 is kept'],
    ['0', '101', 0, 20, 'size 101 becomes 20, not 100 (not clamped)'],
    ['0', '100000', 0, 20, 'any size above 100 becomes 20'],
    ['abc', 'xyz', 0, 20, 'non-numeric: the defaults'],
    ['1.5', '2.5', 0, 20, 'fractions: the defaults'],
    ['1e2', '1e1', 0, 20, 'exponents: the defaults'],
    ['', '', 0, 20, 'empty values: the defaults'],
    [['1', '2'], ['5', '6'], 0, 20, 'a repeated parameter: the defaults'],
    [' 2 ', '+7', 2, 7, 'surrounding spaces and a plus sign are read'],
    [4, 30, 4, 30, 'numbers as numbers'],
  ])('pageIndex %j, pageSize %j → %d / %d (%s)', (index, size, expectedIndex, expectedSize, _row) => {
    expect(normalizeTenantPage(index, size)).toEqual({ pageIndex: expectedIndex, pageSize: expectedSize });
  });

  it('offsets by index × size, and reports a page past any addressable row as empty', () => {
    expect(tenantPageOffset({ pageIndex: 0, pageSize: 20 })).toBe(0);
    expect(tenantPageOffset({ pageIndex: 3, pageSize: 20 })).toBe(60);
    expect(tenantPageOffset(normalizeTenantPage('99999999999999999999', '100'))).toBeUndefined();
  });
});

/** specs/operations.md §8: the tenant page index and size as given, normalised (never refused). */
export const DEFAULT_TENANT_PAGE_INDEX = 0;
export const DEFAULT_TENANT_PAGE_SIZE = 20;
export const MAX_TENANT_PAGE_SIZE = 100;

export interface TenantPage {
  pageIndex: number;
  pageSize: number;
}

const INTEGER = /^[+-]?\d+$/;

/**
 * A query value as an integer, or undefined when it is not one. Only a plain decimal integer
 * counts: a fraction (`1.5`), an exponent (`1e2`), an empty value, a word or a repeated parameter
 * (an array) are "not given", so the default applies; the spec defines no refusal for bad paging.
 */
function integerOf(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  return INTEGER.test(text) ? Number(text) : undefined;
}

/**
 * §8 exactly: index default 0, a negative index becomes 0; size default 20, a size of 0 or less or
 * above 100 becomes 20 (not clamped to 100). An index too large to address a row (beyond
 * `Number.MAX_SAFE_INTEGER` rows in) is kept as given; the page is then simply empty.
 */
export function normalizeTenantPage(pageIndex: unknown, pageSize: unknown): TenantPage {
  const index = integerOf(pageIndex);
  const size = integerOf(pageSize);
  return {
    pageIndex: index === undefined || index < 0 ? DEFAULT_TENANT_PAGE_INDEX : index,
    pageSize: size === undefined || size <= 0 || size > MAX_TENANT_PAGE_SIZE ? DEFAULT_TENANT_PAGE_SIZE : size,
  };
}

/** Rows to skip, or undefined when the page starts past any addressable row (an empty page, no query needed). */
export function tenantPageOffset(page: TenantPage): number | undefined {
  const offset = page.pageIndex * page.pageSize;
  return Number.isSafeInteger(offset) ? offset : undefined;
}

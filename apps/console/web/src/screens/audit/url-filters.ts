import { useSearchParams } from 'react-router';

/** Zero-based page index and page size as the URL holds them (defaults: 0 and 20). */
export function pageFromParams(params: URLSearchParams): { pageIndex: number; pageSize: number } {
  const pageIndex = Number(params.get('page') ?? '0');
  const pageSize = Number(params.get('size') ?? '20');
  return {
    pageIndex: Number.isInteger(pageIndex) && pageIndex >= 0 ? pageIndex : 0,
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 100 ? pageSize : 20,
  };
}

/**
 * One tab's filters and page in the URL query string, so a filtered page can be linked and the Back
 * button returns to it. `setFilters` starts again at the first page.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ''])) as Record<K, string>;
  const { pageIndex, pageSize } = pageFromParams(params);

  const write = (mutate: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    mutate(next);
    setParams(next);
  };
  return {
    filters,
    pageIndex,
    pageSize,
    setFilters: (values: Record<K, string>) =>
      write((next) => {
        for (const key of keys) {
          const value = values[key].trim();
          if (value) next.set(key, value);
          else next.delete(key);
        }
        next.delete('page');
      }),
    setPage: (index: number) => write((next) => (index > 0 ? next.set('page', String(index)) : next.delete('page'))),
    setPageSize: (size: number) =>
      write((next) => {
        next.set('size', String(size));
        next.delete('page');
      }),
  };
}

/** An ISO instant as a `datetime-local` input's value (local time, minutes). */
export function toLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (local time) as the ISO instant the API takes. */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

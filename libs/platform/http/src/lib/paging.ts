import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page } from '@lp/contracts';

// The bounds and the page shape are part of the RPC contracts too (authz.audit.query).
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };
export type { Page };

/**
 * Paging convention of every list route: zero-based `pageIndex`, `pageSize` 1..100 (default 20).
 * Out-of-range values are rejected with a clear message rather than silently changed; the
 * operations tenant list is the spec's one exception and normalizes instead.
 */
export class PageQuery {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  pageIndex = 0;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize = DEFAULT_PAGE_SIZE;
}

export class PageMeta {
  @ApiProperty() pageIndex!: number;
  @ApiProperty() pageSize!: number;
  @ApiProperty() totalCount!: number;
}

export function pageOf<T>(items: T[], totalCount: number, query: PageQuery): Page<T> {
  return { items, pageIndex: query.pageIndex, pageSize: query.pageSize, totalCount };
}

/** TypeORM `skip`/`take` for a page query. */
export function pageWindow(query: PageQuery): { skip: number; take: number } {
  return { skip: query.pageIndex * query.pageSize, take: query.pageSize };
}

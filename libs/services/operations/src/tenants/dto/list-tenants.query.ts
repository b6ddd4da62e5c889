import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { DEFAULT_TENANT_PAGE_INDEX, DEFAULT_TENANT_PAGE_SIZE } from '../tenant-paging';

/**
 * Query of GET /api/operations/tenants. Deliberately unvalidated (`@Allow`): §8 turns every bad
 * value into the default instead of a 400, so `normalizeTenantPage` reads them as given.
 */
export class ListTenantsQuery {
  @ApiPropertyOptional({
    type: 'integer',
    default: DEFAULT_TENANT_PAGE_INDEX,
    description: 'Zero-based page number. Negative → 0; anything but an integer → 0.',
  })
  @Allow()
  pageIndex?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    default: DEFAULT_TENANT_PAGE_SIZE,
    description: 'Rows per page, 1–100. 0 or less, above 100 (not clamped) or anything but an integer → 20.',
  })
  @Allow()
  pageSize?: unknown;
}

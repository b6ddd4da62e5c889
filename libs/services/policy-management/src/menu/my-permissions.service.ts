import { Injectable } from '@nestjs/common';
import { PermissionCatalogReader } from '../permissions/permission-catalog.reader';
import { buildPermissionTree } from '../permissions/permission-tree';
import { EffectivePermissionsReader } from './effective-permissions.reader';
import { MenuProjection, MenuProjectionCache } from './menu-projection.cache';

/** The caller's own effective permissions and menu, projected once per (tenant, subject) and cached. */
@Injectable()
export class MyPermissionsService {
  constructor(
    private readonly cache: MenuProjectionCache,
    private readonly effective: EffectivePermissionsReader,
    private readonly catalog: PermissionCatalogReader,
  ) {}

  async projection(tenantId: string, subject: string): Promise<MenuProjection> {
    const cached = this.cache.get(tenantId, subject);
    if (cached) return cached;
    const ticket = this.cache.ticket();
    const rows = await this.catalog.rows();
    const held = await this.effective.read(tenantId, subject, new Set(rows.map((row) => row.code)));
    const projection: MenuProjection = { ...held, menu: buildPermissionTree(rows, new Set(held.codes)) };
    this.cache.set(tenantId, subject, projection, ticket);
    return projection;
  }
}

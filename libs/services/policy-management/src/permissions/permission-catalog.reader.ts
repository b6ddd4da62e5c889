import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogRow } from './permission-tree';

/** Reads the global permission catalog (no tenant: the catalog is the same for every tenant). */
@Injectable()
export class PermissionCatalogReader {
  constructor(private readonly dataSource: DataSource) {}

  rows(): Promise<CatalogRow[]> {
    return this.dataSource.query(`SELECT id, code, module, resource, action, description FROM authz.permission ORDER BY module, resource, action`);
  }
}

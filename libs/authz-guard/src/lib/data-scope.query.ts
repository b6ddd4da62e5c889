import { DataScope } from '@lp/contracts';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Column names (as SQL expressions on the aliased entity) that a DataScope can filter on. */
export interface DataScopeColumns {
  tenant: string;
  owner?: string;
  office?: string;
  id?: string;
  /**
   * The resource type the rows are (`case`): an `instances` scope names the type its ids belong to,
   * and ids of another type must not match rows of this one. Without it the ids are taken as given.
   */
  resourceType?: string;
}

let parameterSeq = 0;
function param(name: string): string {
  parameterSeq = (parameterSeq + 1) % 1_000_000;
  return `ds_${name}_${parameterSeq}`;
}

/**
 * Narrows a query to what the DataScope allows, always with the tenant predicate first. A scope
 * that needs a column the entity does not map (e.g. `office` on a table without offices) matches
 * nothing: failing closed beats leaking rows.
 */
export function applyDataScope<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, scope: DataScope, columns: DataScopeColumns): SelectQueryBuilder<T> {
  const tenant = param('tenant');
  qb.andWhere(`${columns.tenant} = :${tenant}`, { [tenant]: scope.tenantId });
  switch (scope.kind) {
    case 'tenant':
      return qb;
    case 'own': {
      if (!columns.owner) return qb.andWhere('1 = 0');
      const p = param('owner');
      return qb.andWhere(`${columns.owner} = :${p}`, { [p]: scope.subject });
    }
    case 'office': {
      if (!columns.office || scope.officeIds.length === 0) return qb.andWhere('1 = 0');
      const p = param('office');
      return qb.andWhere(`${columns.office} IN (:...${p})`, { [p]: scope.officeIds });
    }
    case 'instances': {
      if (!columns.id || scope.resourceIds.length === 0) return qb.andWhere('1 = 0');
      if (columns.resourceType !== undefined && scope.resourceType !== columns.resourceType) return qb.andWhere('1 = 0');
      const p = param('ids');
      return qb.andWhere(`${columns.id} IN (:...${p})`, { [p]: scope.resourceIds });
    }
    case 'none':
      return qb.andWhere('1 = 0');
  }
}

import { DataSource } from 'typeorm';
import { PermissionCode } from '@lp/contracts';
import { DataScopeSetting, RoleBinding } from '../engine/policy-facts';
import { SimulationCatalog } from './policy-simulator';

const ROLES = `
  SELECT r."name" AS "roleName", r."data_scope" AS "dataScope",
         (SELECT coalesce(jsonb_agg(rp."permission_code" ORDER BY rp."permission_code"), '[]'::jsonb)
            FROM "authz"."role_permission" rp
           WHERE rp."role_id" = r."id" AND rp."tenant_id" = r."tenant_id") AS "permissions"
    FROM "authz"."role" r
   WHERE r."tenant_id" = $1 AND r."name" = ANY($2::text[])`;

/** `SimulationCatalog` over policy-management's `authz` tables; read-only, tenant-bound where tenant-local. */
export class SqlSimulationCatalog implements SimulationCatalog {
  constructor(private readonly dataSource: DataSource) {}

  async roles(tenantId: string, names: string[]): Promise<RoleBinding[]> {
    const rows = await this.dataSource.query<{ roleName: string; dataScope: DataScopeSetting; permissions: PermissionCode[] }[]>(ROLES, [tenantId, names]);
    return rows.map((r) => ({ roleName: r.roleName, dataScope: r.dataScope, permissions: r.permissions }));
  }

  async knownPermissions(codes: string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ code: string }[]>(`SELECT "code" FROM "authz"."permission" WHERE "code" = ANY($1::text[])`, [codes]);
    return rows.map((r) => r.code);
  }

  async definedFeatures(codes: string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ code: string }[]>(`SELECT "code" FROM "authz"."feature_definition" WHERE "code" = ANY($1::text[])`, [codes]);
    return rows.map((r) => r.code);
  }

  async abacRuleIds(tenantId: string, ids: string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT "id"::text AS "id" FROM "authz"."abac_rule" WHERE "tenant_id" = $1 AND "id"::text = ANY($2::text[])`,
      [tenantId, ids],
    );
    return rows.map((r) => r.id);
  }
}

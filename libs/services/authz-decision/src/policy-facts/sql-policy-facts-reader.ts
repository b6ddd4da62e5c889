import { DataSource } from 'typeorm';
import { AuthorizationAction, PermissionCode } from '@lp/contracts';
import {
  AbacCondition,
  AbacRule,
  AbacVerdict,
  DataScopeSetting,
  DelegatedGrant,
  PolicyFactsReader,
  RelationName,
  ResourceRelation,
  RoleBinding,
  SubjectPermissions,
  TemporaryGrant,
} from '../engine';

/*
 * Every statement names the "authz" schema: this DataSource's own schema is authz_audit, and the
 * tables belong to policy-management (its migration CreatePolicyTables1763700000001 is the
 * authority for their shape; authz-decision may not import it, so the SQL is written against the
 * table shapes and `test-schema.sql` mirrors them). Statements only read.
 */

/**
 * One round trip: four scalar subqueries, each aggregated to JSON. Role names come from `role`
 * itself (the copies in `user_role` follow it by foreign key anyway). Expiries travel as epoch
 * milliseconds, floored: a grant can only look expired up to 1 ms early, never late.
 */
const PERMISSIONS_OF_SUBJECT = `
  SELECT
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'roleName', r."name",
              'dataScope', r."data_scope",
              'permissions', (SELECT coalesce(jsonb_agg(rp."permission_code" ORDER BY rp."permission_code"), '[]'::jsonb)
                                FROM "authz"."role_permission" rp
                               WHERE rp."role_id" = r."id" AND rp."tenant_id" = r."tenant_id")
            ) ORDER BY r."name"), '[]'::jsonb)
       FROM "authz"."user_role" ur
       JOIN "authz"."role" r ON r."id" = ur."role_id" AND r."tenant_id" = ur."tenant_id"
      WHERE ur."tenant_id" = $1 AND ur."subject" = $2) AS "roles",
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'grantId', g."id",
              'permissions', to_jsonb(g."permission_codes"),
              'expiresAtMs', floor(extract(epoch FROM g."expires_at") * 1000),
              'dataScope', g."data_scope"
            ) ORDER BY g."expires_at", g."id"), '[]'::jsonb)
       FROM "authz"."temporary_grant" g
      WHERE g."tenant_id" = $1 AND g."subject" = $2 AND g."revoked_at" IS NULL) AS "temporaryGrants",
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'grantId', d."id",
              'actor', d."actor",
              'permissions', to_jsonb(d."permission_codes"),
              'expiresAtMs', floor(extract(epoch FROM d."expires_at") * 1000)
            ) ORDER BY d."expires_at", d."id"), '[]'::jsonb)
       FROM "authz"."delegated_grant" d
      WHERE d."tenant_id" = $1 AND d."delegator" = $2 AND d."revoked_at" IS NULL) AS "delegatedGrants",
    (SELECT coalesce(jsonb_agg(o."office_id" ORDER BY o."office_id"), '[]'::jsonb)
       FROM "authz"."subject_office" o
      WHERE o."tenant_id" = $1 AND o."subject" = $2) AS "officeIds"`;

const ABAC_RULES = `
  SELECT "id", "name", "priority", "verdict", "conditions", "actions", "modules", "resource_types", "obligations"
    FROM "authz"."abac_rule"
   WHERE "tenant_id" = $1 AND "enabled"
   ORDER BY "priority", "id"`;

/**
 * The subject's own relations (`subject_kind` user) and the shares with a role it holds in the
 * tenant (`subject_kind` role, the role by its tenant-local name, matched through `user_role`,
 * whose name copy follows a rename by foreign key). Every row is answered for the asking subject,
 * once per relation name.
 */
const RELATIONS = `
  SELECT DISTINCT $2::varchar AS "subject", rr."resource_type", rr."resource_id", rr."relation"
    FROM "authz"."resource_relation" rr
   WHERE rr."tenant_id" = $1 AND rr."resource_type" = $3 AND rr."resource_id" = $4
     AND ((rr."subject_kind" = 'user' AND rr."subject" = $2)
       OR (rr."subject_kind" = 'role' AND EXISTS (
             SELECT 1 FROM "authz"."user_role" ur
              WHERE ur."tenant_id" = rr."tenant_id" AND ur."subject" = $2 AND ur."role_name" = rr."subject")))
   ORDER BY rr."relation"`;

/** No row: the feature is not defined. The override exists only with its definition (foreign key). */
const FEATURE_ENABLED = `
  SELECT coalesce(o."enabled", d."default_enabled") AS "enabled"
    FROM "authz"."feature_definition" d
    LEFT JOIN "authz"."feature_override" o ON o."feature_code" = d."code" AND o."tenant_id" = $1
   WHERE d."code" = $2`;

/** No row: active (the tenant was never suspended). The table is policy-management's (CreateTenantStatusTable1764100000000). */
const TENANT_SUSPENDED = `SELECT "status" = 'suspended' AS "suspended" FROM "authz"."tenant_status" WHERE "tenant_id" = $1`;

interface SubjectPermissionsRow {
  roles: { roleName: string; dataScope: DataScopeSetting; permissions: PermissionCode[] }[];
  temporaryGrants: { grantId: string; permissions: PermissionCode[]; expiresAtMs: number; dataScope: DataScopeSetting | null }[];
  delegatedGrants: { grantId: string; actor: string; permissions: PermissionCode[]; expiresAtMs: number }[];
  officeIds: string[];
}

interface AbacRuleRow {
  id: string;
  name: string;
  priority: number;
  verdict: number;
  conditions: unknown;
  actions: string[];
  modules: string[];
  resource_types: string[];
  obligations: string[];
}

interface RelationRow {
  subject: string;
  resource_type: string;
  resource_id: string;
  relation: RelationName;
}

/**
 * `PolicyFactsReader` over policy-management's `authz` tables. Every method is one SQL statement,
 * bound to the tenant; a database error rejects and the evaluators fail closed.
 */
export class SqlPolicyFactsReader implements PolicyFactsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** Roles with their data scope and codes, unrevoked temporary and delegated grants (expired ones too: the core filters), offices. */
  async permissionsOfSubject(tenantId: string, subject: string): Promise<SubjectPermissions> {
    const [row] = await this.dataSource.query<SubjectPermissionsRow[]>(PERMISSIONS_OF_SUBJECT, [tenantId, subject]);
    if (!row) throw new Error('The permissions-of-subject query returned no row');
    return {
      roles: row.roles.map((r): RoleBinding => ({ roleName: r.roleName, dataScope: r.dataScope, permissions: r.permissions })),
      temporaryGrants: row.temporaryGrants.map((g): TemporaryGrant => ({
        grantId: g.grantId,
        permissions: g.permissions,
        expiresAt: new Date(Number(g.expiresAtMs)),
        ...(g.dataScope !== null ? { dataScope: g.dataScope } : {}),
      })),
      delegatedGrants: row.delegatedGrants.map((g): DelegatedGrant => ({
        grantId: g.grantId,
        actor: g.actor,
        permissions: g.permissions,
        expiresAt: new Date(Number(g.expiresAtMs)),
      })),
      officeIds: row.officeIds,
    };
  }

  /** Enabled rules only, in evaluation order; empty filters are left out (absent means "any"). */
  async abacRules(tenantId: string): Promise<readonly AbacRule[]> {
    const rows = await this.dataSource.query<AbacRuleRow[]>(ABAC_RULES, [tenantId]);
    return rows.map(abacRuleOf);
  }

  async relations(tenantId: string, subject: string, resourceType: string, resourceId: string): Promise<readonly ResourceRelation[]> {
    const rows = await this.dataSource.query<RelationRow[]>(RELATIONS, [tenantId, subject, resourceType, resourceId]);
    return rows.map((r) => ({ subject: r.subject, resourceType: r.resource_type, resourceId: r.resource_id, relation: r.relation }));
  }

  async featureEnabled(tenantId: string, featureCode: string): Promise<boolean | undefined> {
    const rows = await this.dataSource.query<{ enabled: boolean }[]>(FEATURE_ENABLED, [tenantId, featureCode]);
    return rows[0]?.enabled;
  }

  async tenantSuspended(tenantId: string): Promise<boolean> {
    const rows = await this.dataSource.query<{ suspended: boolean }[]>(TENANT_SUSPENDED, [tenantId]);
    return rows[0]?.suspended === true;
  }
}

/**
 * Values pass through unchecked (unknown verdicts, fields and operators included): the ABAC
 * evaluator fails closed on a malformed rule for the requests it applies to, with the reason in its
 * trace, which is better than failing every request of the tenant here.
 */
function abacRuleOf(row: AbacRuleRow): AbacRule {
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    verdict: row.verdict as AbacVerdict,
    conditions: Array.isArray(row.conditions) ? row.conditions.map(conditionOf) : (row.conditions as AbacCondition[]),
    ...(row.actions.length > 0 ? { actions: row.actions as AuthorizationAction[] } : {}),
    ...(row.modules.length > 0 ? { modules: row.modules } : {}),
    ...(row.resource_types.length > 0 ? { resourceTypes: row.resource_types } : {}),
    ...(row.obligations.length > 0 ? { obligations: row.obligations } : {}),
  };
}

function conditionOf(stored: unknown): AbacCondition {
  // Anything but an object is handed on as stored, for the evaluator to reject.
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return stored as AbacCondition;
  const c = stored as Record<string, unknown>;
  return {
    field: c['field'] as AbacCondition['field'],
    operator: c['operator'] as AbacCondition['operator'],
    ...('value' in c ? { value: c['value'] as AbacCondition['value'] } : {}),
  };
}

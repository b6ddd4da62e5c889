import { DataSource, EntityManager } from 'typeorm';
import { AUTHORIZATION_ACTIONS, EventTypes } from '@lp/contracts';
import { createEventEnvelope, EventBus } from '@lp/platform/messaging';
import { ABAC_FIELDS, ABAC_OPERATORS, ABAC_VERDICTS, abacInteger } from './abac-integers';
import { CaseContext } from './case-context';
import { AbacRuleSnapshot, PolicyFactsChange, PolicyFactsSnapshot, PolicyStoreName } from './corpus';

/*
 * Writes corpus facts as rows of policy-management's `authz` tables (migration
 * CreatePolicyTables1763700000001) and, for a change, publishes the `authorization.*` integration
 * event policy-management publishes for it, so authz-decision invalidates its caches the way it
 * will in production. Every statement names the table explicitly; nothing here calls the decision
 * plane.
 */

const A = EventTypes.authorization;
const ACTOR = 'conformance-runner';

/**
 * The table whose disappearance makes one store of `SqlPolicyFactsReader` fail: each is read by
 * exactly that store's statement (the subject-permission statement reads `subject_office` along
 * with roles and grants, and no other statement reads it).
 */
export const STORE_TABLES: Readonly<Record<PolicyStoreName, string>> = {
  subjectPermissions: 'subject_office',
  abacRules: 'abac_rule',
  relations: 'resource_relation',
  features: 'feature_definition',
};
const OFFLINE_SUFFIX = '__conformance_offline';

/** The corpus snapshot of one case as the changes that create it, in foreign-key order. Feature defaults are global: see `syncFeatureDefinitions`. */
export function changesCreating(snapshot: PolicyFactsSnapshot): PolicyFactsChange[] {
  const changes: PolicyFactsChange[] = [];
  for (const [tenantId, t] of Object.entries(snapshot.tenants ?? {})) {
    for (const [roleName, role] of Object.entries(t.roles ?? {})) changes.push({ op: 'defineRole', tenantId, roleName, ...role });
    for (const [subject, roles] of Object.entries(t.bindings ?? {}))
      for (const roleName of roles) changes.push({ op: 'bindRole', tenantId, subject, roleName });
    for (const [subject, officeIds] of Object.entries(t.offices ?? {})) changes.push({ op: 'setOffices', tenantId, subject, officeIds });
    for (const [subject, grants] of Object.entries(t.temporaryGrants ?? {}))
      for (const grant of grants) changes.push({ op: 'grantTemporary', tenantId, subject, grant });
    for (const [delegator, grants] of Object.entries(t.delegatedGrants ?? {}))
      for (const grant of grants) changes.push({ op: 'delegate', tenantId, delegator, grant });
    for (const rule of t.abacRules ?? []) changes.push({ op: 'putAbacRule', tenantId, rule });
    for (const relation of t.relations ?? []) changes.push({ op: 'addRelation', tenantId, relation });
    for (const [featureCode, enabled] of Object.entries(t.featureOverrides ?? {})) changes.push({ op: 'setFeatureOverride', tenantId, featureCode, enabled });
  }
  return changes;
}

/** The integer row form of an ABAC rule (spec §2): what `abac_rule` stores. */
export function abacRow(rule: AbacRuleSnapshot) {
  return {
    verdict: abacInteger(ABAC_VERDICTS, rule.verdict, 'ABAC verdict'),
    conditions: rule.conditions.map((c) => ({
      field: abacInteger(ABAC_FIELDS, c.field, 'ABAC field'),
      operator: abacInteger(ABAC_OPERATORS, c.operator, 'ABAC operator'),
      ...('value' in c ? { value: c.value } : {}),
    })),
  };
}

function permissionRow(code: string): { code: string; module: string; resource: string; action: string } {
  const [module, resource, action, ...rest] = code.split('.');
  if (!module || !resource || !action || rest.length > 0) throw new Error(`not a permission code: ${code}`);
  const named = AUTHORIZATION_ACTIONS.find((a) => a.toLowerCase() === action);
  return { code, module, resource, action: named ?? action };
}

interface IntegrationEvent {
  type: string;
  tenantId: string | null;
  payload: Record<string, unknown>;
}

export class ConformancePolicyStore {
  private readonly offline = new Set<string>();

  constructor(
    private readonly sql: DataSource,
    private readonly bus: EventBus,
  ) {}

  /**
   * Feature definitions are global (spec §2), so two cases cannot hold different defaults at the
   * same time. Cases run one after another, and before each this makes `feature_definition` hold
   * exactly that case's defaults (deleting a definition cascades to every tenant's overrides, which
   * only earlier cases used). When anything changed it publishes the global
   * `authorization.feature.changed`, as a change of a default does.
   */
  async syncFeatureDefinitions(defaults: Record<string, boolean>): Promise<void> {
    const rows = await this.sql.query<{ code: string; default_enabled: boolean }[]>(`SELECT "code", "default_enabled" FROM "authz"."feature_definition"`);
    const current = new Map(rows.map((r) => [r.code, r.default_enabled]));
    const wanted = new Map(Object.entries(defaults));
    let changed = false;
    for (const code of current.keys()) {
      if (wanted.has(code)) continue;
      await this.sql.query(`DELETE FROM "authz"."feature_definition" WHERE "code" = $1`, [code]);
      changed = true;
    }
    for (const [code, enabled] of wanted) {
      if (current.get(code) === enabled) continue;
      await this.upsertFeatureDefinition(this.sql.manager, code, enabled);
      changed = true;
    }
    if (changed) await this.publish(A.featureChanged, null, { scope: 'global', featureCodes: [...wanted.keys()] });
  }

  /**
   * The facts of a fresh case tenant. No event: nothing of a tenant nobody has asked about yet can
   * be cached (every decision, DataScope and ReBAC cache key holds the tenant).
   */
  async load(snapshot: PolicyFactsSnapshot, ctx: CaseContext): Promise<void> {
    for (const change of changesCreating(snapshot)) await this.apply(change, ctx, { publish: false });
  }

  /** One change: its rows in one transaction, then its integration event (unless `publish: false`). */
  async apply(change: PolicyFactsChange, ctx: CaseContext, { publish = true } = {}): Promise<void> {
    if (change.op === 'failStore') return this.failStore(change.store);
    if (change.op === 'restoreStore') return this.restoreStore(change.store);
    const written = await this.sql.transaction((m) => this.write(m, change, ctx));
    if (!publish) return;
    for (const event of Array.isArray(written) ? written : [written]) await this.publish(event.type, event.tenantId, event.payload);
  }

  /** Makes one store fail for real: the table its statement reads is renamed away until `restoreStore`. */
  async failStore(store: PolicyStoreName): Promise<void> {
    const table = STORE_TABLES[store];
    if (this.offline.has(table)) return;
    await this.sql.query(`ALTER TABLE "authz"."${table}" RENAME TO "${table}${OFFLINE_SUFFIX}"`);
    this.offline.add(table);
  }

  async restoreStore(store: PolicyStoreName): Promise<void> {
    const table = STORE_TABLES[store];
    if (!this.offline.has(table)) return;
    await this.sql.query(`ALTER TABLE "authz"."${table}${OFFLINE_SUFFIX}" RENAME TO "${table}"`);
    this.offline.delete(table);
  }

  async restoreAllStores(): Promise<void> {
    for (const store of Object.keys(STORE_TABLES) as PolicyStoreName[]) await this.restoreStore(store);
  }

  async publish(eventType: string, tenantId: string | null, payload: Record<string, unknown>): Promise<void> {
    await this.bus.publish(createEventEnvelope(eventType, payload, { tenantId }));
  }

  private async write(
    m: EntityManager,
    change: Exclude<PolicyFactsChange, { op: 'failStore' | 'restoreStore' }>,
    ctx: CaseContext,
  ): Promise<IntegrationEvent | IntegrationEvent[]> {
    switch (change.op) {
      case 'defineRole': {
        const tenantId = ctx.tenant(change.tenantId);
        const [role] = await m.query<{ id: string; inserted: boolean }[]>(
          `INSERT INTO "authz"."role" ("tenant_id", "name", "data_scope") VALUES ($1, $2, $3)
           ON CONFLICT ("tenant_id", "name") DO UPDATE SET "data_scope" = EXCLUDED."data_scope", "updated_at" = now()
           RETURNING "id", (xmax = 0) AS "inserted"`,
          [tenantId, change.roleName, change.dataScope],
        );
        if (!role) throw new Error(`role ${change.roleName} was not upserted in ${change.tenantId}`);
        await this.ensurePermissions(m, change.permissions);
        await m.query(`DELETE FROM "authz"."role_permission" WHERE "role_id" = $1`, [role.id]);
        await m.query(
          `INSERT INTO "authz"."role_permission" ("tenant_id", "role_id", "role_name", "permission_id", "permission_code", "module", "created_by")
           SELECT $1, $2, $3, p."id", p."code", p."module", $5 FROM "authz"."permission" p WHERE p."code" = ANY($4::text[])`,
          [tenantId, role.id, change.roleName, change.permissions, ACTOR],
        );
        return [
          { type: role.inserted ? A.roleCreated : A.roleUpdated, tenantId, payload: { roleName: change.roleName } },
          { type: A.rolePermissionChanged, tenantId, payload: { roleName: change.roleName } },
        ];
      }
      case 'deleteRole': {
        const tenantId = ctx.tenant(change.tenantId);
        // role_permission and user_role rows follow by ON DELETE CASCADE.
        await m.query(`DELETE FROM "authz"."role" WHERE "tenant_id" = $1 AND "name" = $2`, [tenantId, change.roleName]);
        return { type: A.roleDeleted, tenantId, payload: { roleName: change.roleName } };
      }
      case 'bindRole': {
        const tenantId = ctx.tenant(change.tenantId);
        const [role] = await m.query<{ id: string }[]>(`SELECT "id" FROM "authz"."role" WHERE "tenant_id" = $1 AND "name" = $2`, [tenantId, change.roleName]);
        if (!role) throw new Error(`role ${change.roleName} is not defined in ${change.tenantId}`);
        await m.query(
          `INSERT INTO "authz"."user_role" ("tenant_id", "subject", "role_id", "role_name", "created_by") VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT DO NOTHING`,
          [tenantId, change.subject, role.id, change.roleName, ACTOR],
        );
        return { type: A.userRoleAssigned, tenantId, payload: { subject: change.subject, roleName: change.roleName } };
      }
      case 'unbindRole': {
        const tenantId = ctx.tenant(change.tenantId);
        await m.query(`DELETE FROM "authz"."user_role" WHERE "tenant_id" = $1 AND "subject" = $2 AND "role_name" = $3`, [
          tenantId,
          change.subject,
          change.roleName,
        ]);
        return { type: A.userRoleRevoked, tenantId, payload: { subject: change.subject, roleName: change.roleName } };
      }
      case 'setOffices': {
        const tenantId = ctx.tenant(change.tenantId);
        await m.query(`DELETE FROM "authz"."subject_office" WHERE "tenant_id" = $1 AND "subject" = $2`, [tenantId, change.subject]);
        await m.query(`INSERT INTO "authz"."subject_office" ("tenant_id", "subject", "office_id") SELECT $1, $2, unnest($3::text[])`, [
          tenantId,
          change.subject,
          change.officeIds,
        ]);
        return { type: A.subjectOfficeChanged, tenantId, payload: { subject: change.subject } };
      }
      case 'grantTemporary': {
        const tenantId = ctx.tenant(change.tenantId);
        const g = change.grant;
        await m.query(
          `INSERT INTO "authz"."temporary_grant" ("id", "tenant_id", "subject", "permission_codes", "data_scope", "reason", "expires_at", "source", "created_by")
           VALUES ($1, $2, $3, $4::text[], $5, 'conformance corpus', $6::timestamptz, 'conformance', $7)
           ON CONFLICT ("id") DO UPDATE SET "permission_codes" = EXCLUDED."permission_codes", "data_scope" = EXCLUDED."data_scope",
             "expires_at" = EXCLUDED."expires_at", "revoked_at" = NULL`,
          [ctx.id(g.grantId), tenantId, change.subject, g.permissions, g.dataScope ?? null, ctx.instant(g.expiresAt), ACTOR],
        );
        return { type: A.temporaryGrantChanged, tenantId, payload: { subject: change.subject, grantId: ctx.id(g.grantId) } };
      }
      case 'revokeTemporary': {
        const tenantId = ctx.tenant(change.tenantId);
        // Kept for the audit trail; readers skip revoked grants.
        await m.query(`UPDATE "authz"."temporary_grant" SET "revoked_at" = now() WHERE "id" = $1 AND "tenant_id" = $2 AND "subject" = $3`, [
          ctx.id(change.grantId),
          tenantId,
          change.subject,
        ]);
        return { type: A.temporaryGrantChanged, tenantId, payload: { subject: change.subject, grantId: ctx.id(change.grantId) } };
      }
      case 'delegate': {
        const tenantId = ctx.tenant(change.tenantId);
        const g = change.grant;
        await m.query(
          `INSERT INTO "authz"."delegated_grant" ("id", "tenant_id", "delegator", "actor", "permission_codes", "expires_at")
           VALUES ($1, $2, $3, $4, $5::text[], $6::timestamptz)
           ON CONFLICT ("id") DO UPDATE SET "actor" = EXCLUDED."actor", "permission_codes" = EXCLUDED."permission_codes",
             "expires_at" = EXCLUDED."expires_at", "revoked_at" = NULL`,
          [ctx.id(g.grantId), tenantId, change.delegator, g.actor, g.permissions, ctx.instant(g.expiresAt)],
        );
        return { type: A.delegationChanged, tenantId, payload: { subject: change.delegator, grantId: ctx.id(g.grantId) } };
      }
      case 'revokeDelegation': {
        const tenantId = ctx.tenant(change.tenantId);
        await m.query(`UPDATE "authz"."delegated_grant" SET "revoked_at" = now() WHERE "id" = $1 AND "tenant_id" = $2 AND "delegator" = $3`, [
          ctx.id(change.grantId),
          tenantId,
          change.delegator,
        ]);
        return { type: A.delegationChanged, tenantId, payload: { subject: change.delegator, grantId: ctx.id(change.grantId) } };
      }
      case 'putAbacRule': {
        const tenantId = ctx.tenant(change.tenantId);
        const r = change.rule;
        const { verdict, conditions } = abacRow(r);
        // An unnamed corpus rule gets the empty name: the core labels a rule by id alone when it has none.
        await m.query(
          `INSERT INTO "authz"."abac_rule" ("id", "tenant_id", "name", "priority", "verdict", "conditions", "actions", "modules", "resource_types", "obligations")
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::text[], $8::text[], $9::text[], $10::text[])
           ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "priority" = EXCLUDED."priority", "verdict" = EXCLUDED."verdict",
             "conditions" = EXCLUDED."conditions", "actions" = EXCLUDED."actions", "modules" = EXCLUDED."modules",
             "resource_types" = EXCLUDED."resource_types", "obligations" = EXCLUDED."obligations", "updated_at" = now()`,
          [
            ctx.id(r.id),
            tenantId,
            r.name ?? '',
            r.priority,
            verdict,
            JSON.stringify(conditions),
            r.actions ?? [],
            r.modules ?? [],
            r.resourceTypes ?? [],
            r.obligations ?? [],
          ],
        );
        return { type: A.abacRuleChanged, tenantId, payload: { ruleId: ctx.id(r.id) } };
      }
      case 'deleteAbacRule': {
        const tenantId = ctx.tenant(change.tenantId);
        await m.query(`DELETE FROM "authz"."abac_rule" WHERE "id" = $1 AND "tenant_id" = $2`, [ctx.id(change.ruleId), tenantId]);
        return { type: A.abacRuleChanged, tenantId, payload: { ruleId: ctx.id(change.ruleId) } };
      }
      case 'addRelation':
      case 'removeRelation': {
        const tenantId = ctx.tenant(change.tenantId);
        const r = change.relation;
        const values = [tenantId, r.subject, r.resourceType, r.resourceId, r.relation];
        if (change.op === 'addRelation') {
          await m.query(
            `INSERT INTO "authz"."resource_relation" ("tenant_id", "subject", "resource_type", "resource_id", "relation", "created_by")
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
            [...values, ACTOR],
          );
        } else {
          await m.query(
            `DELETE FROM "authz"."resource_relation"
              WHERE "tenant_id" = $1 AND "subject" = $2 AND "resource_type" = $3 AND "resource_id" = $4 AND "relation" = $5`,
            values,
          );
        }
        return { type: A.relationChanged, tenantId, payload: { subject: r.subject, resourceType: r.resourceType, resourceId: r.resourceId } };
      }
      case 'setFeatureDefault': {
        if (change.enabled === null) await m.query(`DELETE FROM "authz"."feature_definition" WHERE "code" = $1`, [change.featureCode]);
        else await this.upsertFeatureDefinition(m, change.featureCode, change.enabled);
        return { type: A.featureChanged, tenantId: null, payload: { scope: 'global', featureCode: change.featureCode } };
      }
      case 'setFeatureOverride': {
        const tenantId = ctx.tenant(change.tenantId);
        if (change.enabled === null) {
          await m.query(`DELETE FROM "authz"."feature_override" WHERE "tenant_id" = $1 AND "feature_code" = $2`, [tenantId, change.featureCode]);
        } else {
          await m.query(
            `INSERT INTO "authz"."feature_override" ("tenant_id", "feature_code", "enabled", "updated_by") VALUES ($1, $2, $3, $4)
             ON CONFLICT ("tenant_id", "feature_code") DO UPDATE SET "enabled" = EXCLUDED."enabled", "updated_at" = now()`,
            [tenantId, change.featureCode, change.enabled, ACTOR],
          );
        }
        return { type: A.featureChanged, tenantId, payload: { scope: 'tenant', featureCode: change.featureCode } };
      }
    }
  }

  /** The global catalog (spec §2), seeded idempotently: every code a role holds must exist in it. */
  private async ensurePermissions(m: EntityManager, codes: string[]): Promise<void> {
    const rows = codes.map(permissionRow);
    await m.query(
      `INSERT INTO "authz"."permission" ("code", "module", "resource", "action")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT ("code") DO NOTHING`,
      [rows.map((r) => r.code), rows.map((r) => r.module), rows.map((r) => r.resource), rows.map((r) => r.action)],
    );
  }

  private async upsertFeatureDefinition(m: EntityManager, code: string, enabled: boolean): Promise<void> {
    await m.query(
      `INSERT INTO "authz"."feature_definition" ("code", "description", "default_enabled") VALUES ($1, $2, $3)
       ON CONFLICT ("code") DO UPDATE SET "default_enabled" = EXCLUDED."default_enabled", "updated_at" = now()`,
      [code, `conformance corpus feature ${code}`, enabled],
    );
  }
}

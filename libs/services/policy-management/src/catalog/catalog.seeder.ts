import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  EventTypes,
  isPlatformPermission,
  PLATFORM_ADMIN_ROLE,
  PLATFORM_TENANT,
  PLATFORM_FEATURES,
  RolePermissionChangedPayload,
  SEEDED_ADMIN_SUBJECT,
  SEEDED_TENANT,
  TrustedCaller,
  UserRoleChangedPayload,
} from '@lp/contracts';
import { PermissionCollector } from '@lp/authz-guard';
import { PolicyChanges } from '../policy-change';
import { CatalogIds } from './catalog-ids';
import { catalogToSeed } from './permission-catalog';

/** The actor of seeded changes in the change log. */
export const SEED_CALLER: TrustedCaller = {
  kind: 'application',
  subject: 'policy-management:seed',
  clientId: 'policy-management',
  tenantId: SEEDED_TENANT,
  scopes: [],
  claimsDigest: 'seed',
};

// Any fixed number: serializes seeding across instances starting together.
const SEED_LOCK = 7_300_001;

export interface SeedReport {
  permissionsAdded: string[];
  featuresAdded: string[];
  adminRoleCreated: boolean;
  adminPermissionsAdded: number;
  adminBound: boolean;
  /** Role permissions of tenants other than the platform tenant that named a platform-level code, removed. */
  platformPermissionsWithdrawn: number;
}

/**
 * Seeds, idempotently and at every start: the global permission catalog, the feature definitions,
 * and in tenant `default` the role `platform-admin` holding every catalog permission, bound to
 * subject `admin` (ARCHITECTURE.md, Operator interface). Inserts only (ON CONFLICT DO NOTHING)
 * with deterministic ids under a transaction-scoped advisory lock: a second start changes nothing,
 * two instances starting together leave the same rows. What it adds is recorded like any other
 * change (change log + events); nothing added, nothing recorded.
 *
 * Seeding never overwrites: a feature default changed by an operator stays changed. It does put
 * back a missing platform-admin permission or admin binding, which is what "seeded" means here.
 *
 * It also withdraws platform-level codes from the roles of every other tenant, recorded as
 * revocations by the seed: rows a tenant bootstrap wrote while the code was still tenant-level
 * (`operations.jobs.*` until issue 31). The decision core denies them anyway; withdrawing them
 * keeps what the role listings show equal to what is decided, and the events drop cached answers.
 */
@Injectable()
export class CatalogSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(CatalogSeeder.name);

  constructor(
    private readonly changes: PolicyChanges,
    private readonly collector: PermissionCollector,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const report = await this.seed();
    this.logger.log(
      `catalog seeded: +${report.permissionsAdded.length} permissions, +${report.featuresAdded.length} features, platform-admin ${
        report.adminRoleCreated ? 'created' : 'kept'
      } (+${report.adminPermissionsAdded} permissions), admin ${report.adminBound ? 'bound' : 'already bound'}, ${
        report.platformPermissionsWithdrawn
      } platform-level permissions withdrawn from roles of other tenants`,
    );
  }

  seed(): Promise<SeedReport> {
    const catalog = catalogToSeed(this.collector.collect());
    // Boot-time seeding relies on the outbox alone: authz-decision may not be up yet.
    return this.changes.apply(
      SEED_CALLER,
      async (tx) => {
        const q = <T>(sql: string, params: unknown[]) => tx.manager.query(sql, params) as Promise<T>;
        await q(`SELECT pg_advisory_xact_lock($1)`, [SEED_LOCK]);

        const permissionsAdded = (
          await q<Array<{ code: string }>>(
            `INSERT INTO authz.permission (id, code, module, resource, action, description)
             SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[])
             ON CONFLICT DO NOTHING RETURNING code`,
            [
              catalog.map((p) => CatalogIds.permission(p.code)),
              catalog.map((p) => p.code),
              catalog.map((p) => p.module),
              catalog.map((p) => p.resource),
              catalog.map((p) => p.action),
              catalog.map((p) => p.description),
            ],
          )
        ).map((r) => r.code);

        const featuresAdded = (
          await q<Array<{ code: string }>>(
            `INSERT INTO authz.feature_definition (code, description, default_enabled)
             SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::boolean[])
             ON CONFLICT DO NOTHING RETURNING code`,
            [PLATFORM_FEATURES.map((f) => f.code), PLATFORM_FEATURES.map((f) => f.description), PLATFORM_FEATURES.map((f) => f.defaultEnabled)],
          )
        ).map((r) => r.code);

        const adminRoleCreated =
          (
            await q<unknown[]>(
              `INSERT INTO authz.role (id, tenant_id, name, description, data_scope)
               VALUES ($1, $2, $3, 'Every permission of the catalog (seeded)', 'tenant')
               ON CONFLICT DO NOTHING RETURNING id`,
              [CatalogIds.seededRole(SEEDED_TENANT, PLATFORM_ADMIN_ROLE), SEEDED_TENANT, PLATFORM_ADMIN_ROLE],
            )
          ).length > 0;
        // By name: an operator may have recreated the role under another id.
        const [role] = await q<Array<{ id: string; name: string }>>(`SELECT id, name FROM authz.role WHERE tenant_id = $1 AND name = $2`, [
          SEEDED_TENANT,
          PLATFORM_ADMIN_ROLE,
        ]);
        if (!role) throw new Error(`The seeded role ${PLATFORM_ADMIN_ROLE} of tenant ${SEEDED_TENANT} was not found by name after its insert`);

        const granted = await q<Array<{ permission_id: string; permission_code: string }>>(
          `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
           SELECT $1, $2, $3, p.id, p.code, p.module, $4 FROM authz.permission p WHERE p.code = ANY($5::varchar[])
           ON CONFLICT DO NOTHING RETURNING permission_id, permission_code`,
          [SEEDED_TENANT, role.id, role.name, SEED_CALLER.subject, catalog.map((p) => p.code)],
        );

        const adminBound =
          (
            await q<unknown[]>(
              `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by)
               VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING subject`,
              [SEEDED_TENANT, SEEDED_ADMIN_SUBJECT, role.id, role.name, SEED_CALLER.subject],
            )
          ).length > 0;

        // A DELETE answers [rows, count] through TypeORM's pg driver.
        const [withdrawn] = await q<[Array<{ tenant_id: string; role_id: string; role_name: string; permission_id: string; permission_code: string }>, number]>(
          `DELETE FROM authz.role_permission WHERE tenant_id <> $1 AND permission_code = ANY($2::varchar[])
           RETURNING tenant_id, role_id, role_name, permission_id, permission_code`,
          [PLATFORM_TENANT, catalog.map((p) => p.code).filter(isPlatformPermission)],
        );

        if (permissionsAdded.length > 0 || featuresAdded.length > 0) {
          await tx.record({
            change: 'catalog.seeded',
            tenantId: null,
            targetType: 'catalog',
            targetId: 'permission-catalog',
            after: { permissionsAdded, featuresAdded },
            events: [],
          });
        }
        for (const g of granted) {
          const payload: RolePermissionChangedPayload = {
            tenantId: SEEDED_TENANT,
            roleId: role.id,
            roleName: role.name,
            permissionId: g.permission_id,
            permissionCode: g.permission_code,
            change: 'granted',
          };
          await tx.record({
            change: 'role-permission.granted',
            tenantId: SEEDED_TENANT,
            targetType: 'role',
            targetId: role.id,
            after: { permissionCode: g.permission_code },
            events: [{ type: EventTypes.authorization.rolePermissionChanged, payload }],
          });
        }
        if (adminBound) {
          const payload: UserRoleChangedPayload = { tenantId: SEEDED_TENANT, subject: SEEDED_ADMIN_SUBJECT, roleId: role.id, roleName: role.name };
          await tx.record({
            change: 'user-role.assigned',
            tenantId: SEEDED_TENANT,
            targetType: 'user',
            targetId: SEEDED_ADMIN_SUBJECT,
            after: { roleName: role.name },
            events: [{ type: EventTypes.authorization.userRoleAssigned, payload }],
          });
        }
        for (const w of withdrawn) {
          const payload: RolePermissionChangedPayload = {
            tenantId: w.tenant_id,
            roleId: w.role_id,
            roleName: w.role_name,
            permissionId: w.permission_id,
            permissionCode: w.permission_code,
            change: 'revoked',
          };
          await tx.record({
            change: 'role-permission.revoked',
            tenantId: w.tenant_id,
            targetType: 'role',
            targetId: w.role_id,
            before: { permissionId: w.permission_id, permissionCode: w.permission_code },
            events: [{ type: EventTypes.authorization.rolePermissionChanged, payload }],
          });
        }
        return {
          permissionsAdded,
          featuresAdded,
          adminRoleCreated,
          adminPermissionsAdded: granted.length,
          adminBound,
          platformPermissionsWithdrawn: withdrawn.length,
        };
      },
      { invalidateNow: false },
    );
  }
}

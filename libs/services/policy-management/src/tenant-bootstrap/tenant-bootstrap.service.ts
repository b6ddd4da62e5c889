import { Injectable } from '@nestjs/common';
import {
  AuthorizationEvent,
  EventTypes,
  RoleChangedPayload,
  RolePermissionChangedPayload,
  TENANT_ADMIN_ROLE,
  TENANT_LEVEL_PERMISSIONS,
  TenantBootstrapRequest,
  TenantBootstrapResult,
  TrustedCaller,
  UserRoleChangedPayload,
} from '@lp/contracts';
import { PolicyChanges } from '../policy-change';

/**
 * The policy side of creating a tenant (docs/tenant-bootstrap.md): role `tenant-admin` holding every
 * tenant-level permission, bound to the administrator the platform administrator named. Idempotent:
 * each row is inserted only if missing, and only what was written is recorded and published, so a
 * retry (operations retries when its own step after this one fails) leaves the same rows and no
 * second change-log entry. A permission added to the catalog later is added by the next call.
 */
@Injectable()
export class TenantBootstrapService {
  constructor(private readonly changes: PolicyChanges) {}

  async bootstrap(caller: TrustedCaller, request: TenantBootstrapRequest): Promise<TenantBootstrapResult> {
    const { tenantId, adminSubject } = request;
    const events: AuthorizationEvent[] = [];
    const result = await this.changes.apply(caller, async (tx) => {
      const m = tx.manager;
      const inserted: Array<{ id: string; name: string }> = await m.query(
        `INSERT INTO authz.role (tenant_id, name, description, data_scope)
         VALUES ($1, $2, 'Administrator of this tenant: every tenant-level permission (created by the tenant bootstrap)', 'tenant')
         ON CONFLICT (tenant_id, name) DO NOTHING RETURNING id, name`,
        [tenantId, TENANT_ADMIN_ROLE],
      );
      const [role] =
        inserted.length > 0 ? inserted : await m.query(`SELECT id, name FROM authz.role WHERE tenant_id = $1 AND name = $2`, [tenantId, TENANT_ADMIN_ROLE]);
      if (inserted.length > 0) {
        const payload: RoleChangedPayload = { tenantId, roleId: role.id, roleName: role.name, change: 'created' };
        const record = { type: EventTypes.authorization.roleCreated, payload };
        events.push(record);
        await tx.record({ change: 'role.created', tenantId, targetType: 'role', targetId: role.id, after: { name: role.name }, events: [record] });
      }

      const granted: Array<{ permission_id: string; permission_code: string }> = await m.query(
        `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
         SELECT $1, $2, $3, p.id, p.code, p.module, $5 FROM authz.permission p WHERE p.code = ANY ($4::text[])
         ON CONFLICT DO NOTHING RETURNING permission_id, permission_code`,
        [tenantId, role.id, role.name, TENANT_LEVEL_PERMISSIONS.map((p) => p.code), caller.actor ?? caller.subject],
      );
      if (granted.length > 0) {
        const records = granted.map((g) => {
          const payload: RolePermissionChangedPayload = {
            tenantId,
            roleId: role.id,
            roleName: role.name,
            permissionId: g.permission_id,
            permissionCode: g.permission_code,
            change: 'granted',
          };
          return { type: EventTypes.authorization.rolePermissionChanged, payload };
        });
        events.push(...records);
        await tx.record({
          change: 'role-permission.granted',
          tenantId,
          targetType: 'role',
          targetId: role.id,
          after: { permissionCodes: granted.map((g) => g.permission_code).sort() },
          events: records,
        });
      }

      const bound: unknown[] = await m.query(
        `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING subject`,
        [tenantId, adminSubject, role.id, role.name, caller.actor ?? caller.subject],
      );
      if (bound.length > 0) {
        const payload: UserRoleChangedPayload = { tenantId, subject: adminSubject, roleId: role.id, roleName: role.name };
        const record = { type: EventTypes.authorization.userRoleAssigned, payload };
        events.push(record);
        await tx.record({
          change: 'user-role.assigned',
          tenantId,
          targetType: 'user',
          targetId: adminSubject,
          after: { roleId: role.id, roleName: role.name },
          events: [record],
        });
      }
      return {
        tenantId,
        roleId: role.id as string,
        roleName: role.name as string,
        adminSubject,
        created: { role: inserted.length > 0, permissions: granted.length, binding: bound.length > 0 },
      };
    });
    return result;
  }
}

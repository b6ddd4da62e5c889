import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import { EventTypes, NotFoundError, RolePermissionChangedPayload, TrustedCaller, ValidationError } from '@lp/contracts';
import { Page, pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { PolicyChanges } from '../policy-change';
import { PermissionEntity } from '../policy-store/entities/permission.entity';
import { GrantRolePermissionDto } from './dto/grant-role-permission.dto';
import { RolePermissionResponse } from './dto/role-permission.response';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { requireUuid } from './path-params';
import { lockRole } from './role-lookup';
import { requiredPermissionsOf } from './protected-role';
import { RoleProtectedError } from './roles.errors';
import { PermissionUnknownError } from '../catalog/permission-unknown.error';
import { assertGrantableInTenant } from '../catalog/permission-platform-only.error';

interface RolePermissionRow {
  permission_id: string;
  permission_code: string;
  module: string;
  resource: string;
  action: string;
  created_at: Date;
}

/**
 * Permissions of a tenant's role, from the global catalog. Granting a held permission or revoking
 * one not held answers 204 and writes nothing. A grant naming a permission that is not in the
 * catalog is 422 `Authorization.PermissionUnknown` (the body is well-formed but names nothing);
 * a revoke naming one is 404 (the path names nothing). A protected role's required permissions
 * (`requiredPermissionsOf`) are refused with 409 `Authorization.RoleProtected`.
 */
@Injectable()
export class RolePermissionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: PolicyChanges,
  ) {}

  async list(tenantId: string, roleId: string, page: PageQuery): Promise<Page<RolePermissionResponse>> {
    const id = requireUuid(roleId, 'Role');
    const role = await this.dataSource.manager.findOneBy(RoleEntity, { id, tenantId });
    if (!role) throw new NotFoundError('Role');
    const { skip, take } = pageWindow(page);
    const [rows, [count]]: [RolePermissionRow[], Array<{ n: number }>] = await Promise.all([
      this.dataSource.query(
        `SELECT rp.permission_id, rp.permission_code, p.module, p.resource, p.action, rp.created_at
           FROM authz.role_permission rp JOIN authz.permission p ON p.id = rp.permission_id
          WHERE rp.tenant_id = $1 AND rp.role_id = $2 ORDER BY rp.permission_code OFFSET $3 LIMIT $4`,
        [tenantId, id, skip, take],
      ),
      this.dataSource.query(`SELECT count(*)::int AS n FROM authz.role_permission WHERE tenant_id = $1 AND role_id = $2`, [tenantId, id]),
    ]);
    if (!count) throw new Error('The role permission count query returned no row');
    const items = rows.map((r) => ({
      permissionId: r.permission_id,
      permissionCode: r.permission_code,
      module: r.module,
      resource: r.resource,
      action: r.action,
      grantedAt: new Date(r.created_at).toISOString(),
    }));
    return pageOf(items, count.n, page);
  }

  async grant(caller: TrustedCaller, roleId: string, dto: GrantRolePermissionDto): Promise<void> {
    if ((dto.permissionCode === undefined) === (dto.permissionId === undefined)) {
      throw new ValidationError({ permissionCode: ['exactly one of permissionCode and permissionId is required'] });
    }
    const tenantId = caller.tenantId;
    await this.change(caller, async (manager) => {
      const role = await lockRole(manager, tenantId, roleId, 'share');
      const permission = await manager.findOneBy(
        PermissionEntity,
        dto.permissionId !== undefined ? { id: dto.permissionId.toLowerCase() } : { code: dto.permissionCode },
      );
      if (!permission) throw new PermissionUnknownError([dto.permissionCode ?? dto.permissionId ?? '']);
      assertGrantableInTenant(tenantId, [permission.code]);
      const written: unknown[] = await manager.query(
        `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING permission_id`,
        [tenantId, role.id, role.name, permission.id, permission.code, permission.module, caller.actor ?? caller.subject],
      );
      return written.length === 0 ? null : { role, permission, change: 'granted' as const };
    });
  }

  async revoke(caller: TrustedCaller, roleId: string, permissionId: string): Promise<void> {
    const tenantId = caller.tenantId;
    await this.change(caller, async (manager) => {
      const role = await lockRole(manager, tenantId, roleId, 'share');
      const permission = await manager.findOneBy(PermissionEntity, { id: requireUuid(permissionId, 'Permission') });
      if (!permission) throw new NotFoundError('Permission');
      if (requiredPermissionsOf(tenantId, role.name).includes(permission.code)) throw new RoleProtectedError(role.name, { losing: permission.code });
      const [deleted]: [unknown[]] = await manager.query(
        `DELETE FROM authz.role_permission WHERE tenant_id = $1 AND role_id = $2 AND permission_id = $3 RETURNING permission_id`,
        [tenantId, role.id, permission.id],
      );
      return deleted.length === 0 ? null : { role, permission, change: 'revoked' as const };
    });
  }

  private async change(
    caller: TrustedCaller,
    write: (manager: EntityManager) => Promise<{ role: RoleEntity; permission: PermissionEntity; change: 'granted' | 'revoked' } | null>,
  ): Promise<void> {
    const type = EventTypes.authorization.rolePermissionChanged;
    await this.changes.apply(caller, async (tx) => {
      const done = await write(tx.manager);
      if (!done) return null;
      const { role, permission, change } = done;
      const payload: RolePermissionChangedPayload = {
        tenantId: role.tenantId,
        roleId: role.id,
        roleName: role.name,
        permissionId: permission.id,
        permissionCode: permission.code,
        change,
      };
      const ref = { permissionId: permission.id, permissionCode: permission.code };
      await tx.record({
        change: `role-permission.${change}`,
        tenantId: role.tenantId,
        targetType: 'role',
        targetId: role.id,
        ...(change === 'granted' ? { after: ref } : { before: ref }),
        events: [{ type, payload }],
      });
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { EventTypes, NotFoundError, TrustedCaller, UserRoleChangedPayload } from '@lp/contracts';
import { Page, pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { PolicyChanges } from '../policy-change';
import { RoleResponse } from './dto/role.response';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { PgErrorCode, sqlState } from '@lp/platform/persistence';
import { requireUserId } from './path-params';
import { lockRole } from './role-lookup';

/**
 * Bindings of users (identity subject keys) to roles of the caller's tenant. Both writes are
 * idempotent: assigning a held role or revoking one not held answers 204 and writes nothing (no
 * change-log row, no event). The event names the user in the path as `subject`, never the actor.
 */
@Injectable()
export class UserRolesService {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    private readonly changes: PolicyChanges,
  ) {}

  /** A user nobody has bound yet simply holds no roles: users belong to the identity owner, not to this store. */
  async list(tenantId: string, userId: string, page: PageQuery): Promise<Page<RoleResponse>> {
    const subject = requireUserId(userId);
    const { skip, take } = pageWindow(page);
    const ids: Array<{ role_id: string }> = await this.roles.query(`SELECT ur.role_id FROM authz.user_role ur WHERE ur.tenant_id = $1 AND ur.subject = $2`, [
      tenantId,
      subject,
    ]);
    const [rows, total] = await this.roles.findAndCount({
      where: { tenantId, id: In(ids.map((r) => r.role_id)) },
      order: { name: 'ASC' },
      skip,
      take,
    });
    return pageOf(rows.map(RoleResponse.of), total, page);
  }

  async assign(caller: TrustedCaller, userId: string, roleId: string): Promise<void> {
    await this.bind(caller, userId, roleId, 'assigned');
  }

  async revoke(caller: TrustedCaller, userId: string, roleId: string): Promise<void> {
    await this.bind(caller, userId, roleId, 'revoked');
  }

  private async bind(caller: TrustedCaller, userId: string, roleId: string, change: 'assigned' | 'revoked'): Promise<void> {
    const subject = requireUserId(userId);
    const tenantId = caller.tenantId;
    const type = change === 'assigned' ? EventTypes.authorization.userRoleAssigned : EventTypes.authorization.userRoleRevoked;
    try {
      await this.changes.apply(caller, async (tx) => {
        const role = await lockRole(tx.manager, tenantId, roleId, 'share');
        const written: unknown[] =
          change === 'assigned'
            ? await tx.manager.query(
                `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING subject`,
                [tenantId, subject, role.id, role.name, caller.actor ?? caller.subject],
              )
            : (
                await tx.manager.query(`DELETE FROM authz.user_role WHERE tenant_id = $1 AND subject = $2 AND role_id = $3 RETURNING subject`, [
                  tenantId,
                  subject,
                  role.id,
                ])
              )[0];
        if (written.length === 0) return;
        const payload: UserRoleChangedPayload = { tenantId, subject, roleId: role.id, roleName: role.name };
        const roleRef = { roleId: role.id, roleName: role.name };
        await tx.record({
          change: `user-role.${change}`,
          tenantId,
          targetType: 'user',
          targetId: subject,
          ...(change === 'assigned' ? { after: roleRef } : { before: roleRef }),
          events: [{ type, payload }],
        });
      });
    } catch (error) {
      // The role was deleted between the lookup and the insert.
      if (sqlState(error) === PgErrorCode.ForeignKeyViolation) throw new NotFoundError('Role');
      throw error;
    }
  }
}

import { Injectable } from '@nestjs/common';
import { AuthorizationEvent, EventTypes, NotFoundError, RoleChangedPayload, TrustedCaller } from '@lp/contracts';
import { Page, pageOf } from '@lp/platform/http';
import { PolicyChanges } from '../policy-change';
import { RoleResponse } from './dto/role.response';
import { SaveRoleDto } from './dto/save-role.dto';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { PgErrorCode, sqlState } from '@lp/platform/persistence';
import { isProtectedRole } from './protected-role';
import { RoleRepository } from './role.repository';
import { requireUuid } from './path-params';
import { lockRole } from './role-lookup';
import { ListRolesQuery } from './dto/list-roles.query';
import { RoleNameTakenError, RoleProtectedError } from './roles.errors';

type RoleEvent = Extract<AuthorizationEvent, { payload: RoleChangedPayload }>;

@Injectable()
export class RolesService {
  constructor(
    private readonly repository: RoleRepository,
    private readonly changes: PolicyChanges,
  ) {}

  async list(tenantId: string, query: ListRolesQuery): Promise<Page<RoleResponse>> {
    const [rows, total] = await this.repository.list(tenantId, query);
    return pageOf(rows.map(RoleResponse.of), total, query);
  }

  /** One role of the tenant; unknown, another tenant's and malformed ids are all 404. */
  async get(tenantId: string, roleId: string): Promise<RoleResponse> {
    const role = await this.repository.find(tenantId, requireUuid(roleId, 'Role'));
    if (!role) throw new NotFoundError('Role');
    return RoleResponse.of(role);
  }

  async create(caller: TrustedCaller, dto: SaveRoleDto): Promise<RoleResponse> {
    const tenantId = caller.tenantId;
    const { role } = await this.nameGuarded(dto.name, () =>
      this.changes.apply(caller, async (tx) => {
        const saved = await tx.manager.save(
          tx.manager.create(RoleEntity, { tenantId, name: dto.name, description: dto.description ?? null, dataScope: dto.dataScope ?? 'tenant' }),
        );
        const response = RoleResponse.of(saved);
        const event: RoleEvent = {
          type: EventTypes.authorization.roleCreated,
          payload: { tenantId, roleId: saved.id, roleName: saved.name, change: 'created' },
        };
        await tx.record({ change: 'role.created', tenantId, targetType: 'role', targetId: saved.id, after: response, events: [event] });
        return { role: response, event };
      }),
    );
    return role;
  }

  /**
   * Fields left out keep their value (a rename alone never widens the data scope back to the
   * default). A rename cascades to every binding and role-permission through the composite
   * foreign keys. An update that changes nothing writes nothing.
   */
  async update(caller: TrustedCaller, roleId: string, dto: SaveRoleDto): Promise<RoleResponse> {
    const tenantId = caller.tenantId;
    const { role } = await this.nameGuarded(dto.name, () =>
      this.changes.apply(caller, async (tx) => {
        const current = await lockRole(tx.manager, tenantId, roleId, 'update');
        const next = {
          name: dto.name,
          description: dto.description !== undefined ? dto.description : current.description,
          dataScope: dto.dataScope ?? current.dataScope,
        };
        if (next.name !== current.name && isProtectedRole(tenantId, current.name)) throw new RoleProtectedError(current.name, 'renamed');
        if (next.name === current.name && next.description === current.description && next.dataScope === current.dataScope) {
          return { role: RoleResponse.of(current), event: null };
        }
        await tx.manager.update(RoleEntity, { id: current.id, tenantId }, next);
        // Role shares name the role (spec §2: the name is the relation key) without a foreign key
        // (a relation's subject is a user or a role): they follow the rename here.
        if (next.name !== current.name) {
          await tx.manager.query(`UPDATE authz.resource_relation SET subject = $3 WHERE tenant_id = $1 AND subject_kind = 'role' AND subject = $2`, [
            tenantId,
            current.name,
            next.name,
          ]);
        }
        const updated = await tx.manager.findOneByOrFail(RoleEntity, { id: current.id, tenantId });
        const before = RoleResponse.of(current);
        const after = RoleResponse.of(updated);
        const payload: RoleChangedPayload = { tenantId, roleId: updated.id, roleName: updated.name, change: 'updated' };
        if (current.name !== updated.name) payload.previousName = current.name;
        const event: RoleEvent = { type: EventTypes.authorization.roleUpdated, payload };
        await tx.record({ change: 'role.updated', tenantId, targetType: 'role', targetId: updated.id, before, after, events: [event] });
        return { role: after, event };
      }),
    );
    return role;
  }

  /**
   * Bindings and role-permissions go with the role (ON DELETE CASCADE). The event bumps the
   * tenant's policy revision, so every former holder is decided afresh on the next request; the
   * change log keeps who held the role and what it granted.
   */
  async delete(caller: TrustedCaller, roleId: string): Promise<void> {
    const tenantId = caller.tenantId;
    await this.changes.apply(caller, async (tx) => {
      const role = await lockRole(tx.manager, tenantId, roleId, 'update');
      if (isProtectedRole(tenantId, role.name)) throw new RoleProtectedError(role.name, 'deleted');
      const holders: Array<{ subject: string }> = await tx.manager.query(
        `SELECT subject FROM authz.user_role WHERE tenant_id = $1 AND role_id = $2 ORDER BY subject`,
        [tenantId, role.id],
      );
      const granted: Array<{ permission_code: string }> = await tx.manager.query(
        `SELECT permission_code FROM authz.role_permission WHERE tenant_id = $1 AND role_id = $2 ORDER BY permission_code`,
        [tenantId, role.id],
      );
      await tx.manager.delete(RoleEntity, { id: role.id, tenantId });
      // Its shares go with it, or a later role of the same name would inherit them.
      const shares: Array<{ id: string }> = await tx.manager.query(
        `DELETE FROM authz.resource_relation WHERE tenant_id = $1 AND subject_kind = 'role' AND subject = $2 RETURNING id`,
        [tenantId, role.name],
      );
      const event: RoleEvent = {
        type: EventTypes.authorization.roleDeleted,
        payload: { tenantId, roleId: role.id, roleName: role.name, change: 'deleted' },
      };
      await tx.record({
        change: 'role.deleted',
        tenantId,
        targetType: 'role',
        targetId: role.id,
        before: {
          ...RoleResponse.of(role),
          holders: holders.map((h) => h.subject),
          permissionCodes: granted.map((g) => g.permission_code),
          shareIds: shares.map((r) => r.id),
        },
        events: [event],
      });
    });
  }

  /** The unique index (tenant, name) decides, also between two writes racing for one name. */
  private async nameGuarded<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (sqlState(error) === PgErrorCode.UniqueViolation) throw new RoleNameTakenError(name);
      throw error;
    }
  }
}

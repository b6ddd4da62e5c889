import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@lp/contracts';
import { Page, pageOf } from '@lp/platform/http';
import { ListRoleMembersQuery } from './dto/list-role-members.query';
import { RoleMemberResponse } from './dto/role-member.response';
import { requireUuid } from './path-params';
import { RoleRepository } from './role.repository';

/**
 * The subjects holding a role of the caller's tenant (the other side of `GET /users/{userId}/roles`).
 * An unknown role, another tenant's and a malformed id are all 404 `NotFound`; a role nobody holds
 * answers an empty page.
 */
@Injectable()
export class RoleMembersService {
  constructor(private readonly repository: RoleRepository) {}

  async list(tenantId: string, roleId: string, query: ListRoleMembersQuery): Promise<Page<RoleMemberResponse>> {
    const id = requireUuid(roleId, 'Role');
    if (!(await this.repository.find(tenantId, id))) throw new NotFoundError('Role');
    const [rows, total] = await this.repository.members(tenantId, id, query.search, query);
    return pageOf(rows.map(RoleMemberResponse.of), total, query);
  }
}

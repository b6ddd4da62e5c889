import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PageQuery, pageWindow } from '@lp/platform/http';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { UserRoleEntity } from '../policy-store/entities/user-role.entity';

/** `%`, `_` and `\` in a search are text, not patterns. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

@Injectable()
export class RoleRepository {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    @InjectRepository(UserRoleEntity) private readonly bindings: Repository<UserRoleEntity>,
  ) {}

  /** Every query is bound to one tenant: another tenant's roles behave as if they did not exist. */
  list(tenantId: string, query: PageQuery & { name?: string }): Promise<[RoleEntity[], number]> {
    const where = query.name === undefined ? { tenantId } : { tenantId, name: query.name };
    return this.roles.findAndCount({ where, order: { name: 'ASC' }, ...pageWindow(query) });
  }

  /** The role `id` of the tenant, or null (`id` must already be a UUID). */
  find(tenantId: string, id: string): Promise<RoleEntity | null> {
    return this.roles.findOneBy({ id, tenantId });
  }

  /**
   * One page of the role's bindings in the tenant, by subject (unique per role, so pages are
   * stable), optionally only subjects containing `search` (case-insensitive): the page and the
   * count, two queries whatever the page size.
   */
  members(tenantId: string, roleId: string, search: string | undefined, page: PageQuery): Promise<[UserRoleEntity[], number]> {
    const q = this.bindings.createQueryBuilder('ur').where('ur.tenantId = :tenantId', { tenantId }).andWhere('ur.roleId = :roleId', { roleId });
    if (search !== undefined) q.andWhere(`ur.subject ILIKE :search ESCAPE '\\'`, { search: `%${likeLiteral(search)}%` });
    const { skip, take } = pageWindow(page);
    return q.orderBy('ur.subject', 'ASC').offset(skip).limit(take).getManyAndCount();
  }
}

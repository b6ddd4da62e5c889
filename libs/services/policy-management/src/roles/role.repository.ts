import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PageQuery, pageWindow } from '@lp/platform/http';
import { containsPattern } from '@lp/platform/persistence';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { UserRoleEntity } from '../policy-store/entities/user-role.entity';

@Injectable()
export class RoleRepository {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    @InjectRepository(UserRoleEntity) private readonly bindings: Repository<UserRoleEntity>,
  ) {}

  /**
   * Every query is bound to one tenant: another tenant's roles behave as if they did not exist.
   * `name` is exact; `search` a case-insensitive "contains" on the name; both may be given.
   */
  list(tenantId: string, query: PageQuery & { name?: string; search?: string }): Promise<[RoleEntity[], number]> {
    const q = this.roles.createQueryBuilder('r').where('r.tenantId = :tenantId', { tenantId });
    if (query.name !== undefined) q.andWhere('r.name = :name', { name: query.name });
    if (query.search !== undefined) q.andWhere(`r.name ILIKE :search ESCAPE '\\'`, { search: containsPattern(query.search) });
    const { skip, take } = pageWindow(query);
    return q.orderBy('r.name', 'ASC').offset(skip).limit(take).getManyAndCount();
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
    if (search !== undefined) q.andWhere(`ur.subject ILIKE :search ESCAPE '\\'`, { search: containsPattern(search) });
    const { skip, take } = pageWindow(page);
    return q.orderBy('ur.subject', 'ASC').offset(skip).limit(take).getManyAndCount();
  }
}

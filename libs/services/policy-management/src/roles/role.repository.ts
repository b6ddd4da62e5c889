import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PageQuery, pageWindow } from '@lp/platform/http';
import { RoleEntity } from '../policy-store/entities/role.entity';

@Injectable()
export class RoleRepository {
  constructor(@InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>) {}

  /** Every query is bound to one tenant: another tenant's roles behave as if they did not exist. */
  list(tenantId: string, page: PageQuery): Promise<[RoleEntity[], number]> {
    return this.roles.findAndCount({ where: { tenantId }, order: { name: 'ASC' }, ...pageWindow(page) });
  }
}

import { Injectable } from '@nestjs/common';
import { Page, pageOf, PageQuery } from '@lp/platform/http';
import { RoleResponse } from './dto/role.response';
import { RoleRepository } from './role.repository';

@Injectable()
export class RolesService {
  constructor(private readonly repository: RoleRepository) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<RoleResponse>> {
    const [rows, total] = await this.repository.list(tenantId, page);
    return pageOf(rows.map(RoleResponse.of), total, page);
  }
}

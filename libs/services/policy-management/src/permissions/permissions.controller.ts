import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { PermissionTreeResponse } from './dto/permission-tree.response';
import { PermissionCatalogReader } from './permission-catalog.reader';
import { buildPermissionTree, PermissionTree } from './permission-tree';

@ApiTags('permissions')
@ApiBearerAuth()
@Controller('api/authorization/permissions')
export class PermissionsController {
  constructor(private readonly catalog: PermissionCatalogReader) {}

  @Get('tree')
  @Authorize({ module: 'authorization', resource: 'permission', action: AuthorizationAction.View })
  @ApiOkResponse({ type: PermissionTreeResponse })
  async tree(): Promise<PermissionTree> {
    return buildPermissionTree(await this.catalog.rows());
  }
}

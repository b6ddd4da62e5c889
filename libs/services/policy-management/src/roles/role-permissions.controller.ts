import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { PageQuery } from '@lp/platform/http';
import { Authorize } from '@lp/authz-guard';
import { GrantRolePermissionDto } from './dto/grant-role-permission.dto';
import { RolePermissionPage } from './dto/role-permission.response';
import { RolePermissionsService } from './role-permissions.service';

@ApiTags('role permissions')
@ApiBearerAuth()
@Controller('api/authorization/roles/:roleId/permissions')
export class RolePermissionsController {
  constructor(private readonly rolePermissions: RolePermissionsService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'role-permission', action: AuthorizationAction.View })
  @ApiOkResponse({ type: RolePermissionPage })
  list(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string, @Query() page: PageQuery) {
    return this.rolePermissions.list(caller.tenantId, roleId, page);
  }

  @Post()
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'role-permission', action: AuthorizationAction.Grant })
  @ApiNoContentResponse({ description: 'Granted (or already granted: nothing written).' })
  grant(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string, @Body() body: GrantRolePermissionDto): Promise<void> {
    return this.rolePermissions.grant(caller, roleId, body);
  }

  @Delete(':permissionId')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'role-permission', action: AuthorizationAction.Revoke })
  @ApiNoContentResponse({ description: 'Revoked (or was not granted: nothing written).' })
  revoke(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string, @Param('permissionId') permissionId: string): Promise<void> {
    return this.rolePermissions.revoke(caller, roleId, permissionId);
  }
}

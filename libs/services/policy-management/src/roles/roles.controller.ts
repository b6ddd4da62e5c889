import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { ListRolesQuery } from './dto/list-roles.query';
import { RolePage, RoleResponse } from './dto/role.response';
import { SaveRoleDto } from './dto/save-role.dto';
import { RolesService } from './roles.service';

@ApiTags('roles')
@ApiBearerAuth()
@Controller('api/authorization/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.View })
  @ApiOkResponse({ type: RolePage })
  list(@Caller() caller: TrustedCaller, @Query() query: ListRolesQuery) {
    return this.roles.list(caller.tenantId, query);
  }

  @Get(':roleId')
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.View })
  @ApiOkResponse({ type: RoleResponse })
  get(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string): Promise<RoleResponse> {
    return this.roles.get(caller.tenantId, roleId);
  }

  @Post()
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.Create })
  @ApiCreatedResponse({ type: RoleResponse })
  create(@Caller() caller: TrustedCaller, @Body() body: SaveRoleDto): Promise<RoleResponse> {
    return this.roles.create(caller, body);
  }

  @Put(':roleId')
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.Update })
  @ApiOkResponse({ type: RoleResponse })
  update(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string, @Body() body: SaveRoleDto): Promise<RoleResponse> {
    return this.roles.update(caller, roleId, body);
  }

  @Delete(':roleId')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.Delete })
  @ApiNoContentResponse()
  delete(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string): Promise<void> {
    return this.roles.delete(caller, roleId);
  }
}

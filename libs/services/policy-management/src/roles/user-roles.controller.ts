import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { PageQuery } from '@lp/platform/http';
import { Authorize } from '@lp/authz-guard';
import { RolePage } from './dto/role.response';
import { UserRolesService } from './user-roles.service';

@ApiTags('user roles')
@ApiBearerAuth()
@Controller('api/authorization/users/:userId/roles')
export class UserRolesController {
  constructor(private readonly userRoles: UserRolesService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'user-role', action: AuthorizationAction.View })
  @ApiOkResponse({ type: RolePage })
  list(@Caller() caller: TrustedCaller, @Param('userId') userId: string, @Query() page: PageQuery) {
    return this.userRoles.list(caller.tenantId, userId, page);
  }

  @Post(':roleId')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'user-role', action: AuthorizationAction.Assign })
  @ApiNoContentResponse({ description: 'Bound (or already bound: nothing written).' })
  assign(@Caller() caller: TrustedCaller, @Param('userId') userId: string, @Param('roleId') roleId: string): Promise<void> {
    return this.userRoles.assign(caller, userId, roleId);
  }

  @Delete(':roleId')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'user-role', action: AuthorizationAction.Revoke })
  @ApiNoContentResponse({ description: 'Unbound (or was not bound: nothing written).' })
  revoke(@Caller() caller: TrustedCaller, @Param('userId') userId: string, @Param('roleId') roleId: string): Promise<void> {
    return this.userRoles.revoke(caller, userId, roleId);
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { ListRoleMembersQuery } from './dto/list-role-members.query';
import { RoleMemberPage } from './dto/role-member.response';
import { RoleMembersService } from './role-members.service';

/** A role's members: bindings seen from the role, guarded like the subject's side (`user-role.view`). */
@ApiTags('user roles')
@ApiBearerAuth()
@Controller('api/authorization/roles/:roleId/members')
export class RoleMembersController {
  constructor(private readonly members: RoleMembersService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'user-role', action: AuthorizationAction.View })
  @ApiOkResponse({ type: RoleMemberPage })
  list(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string, @Query() query: ListRoleMembersQuery) {
    return this.members.list(caller.tenantId, roleId, query);
  }
}

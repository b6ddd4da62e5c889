import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { PageQuery } from '@lp/platform/http';
import { Authorize } from '@lp/authz-guard';
import { RolePage } from './dto/role.response';
import { RolesService } from './roles.service';

@ApiTags('roles')
@ApiBearerAuth()
@Controller('api/authorization/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.View })
  @ApiOkResponse({ type: RolePage })
  list(@Caller() caller: TrustedCaller, @Query() page: PageQuery) {
    return this.roles.list(caller.tenantId, page);
  }
}

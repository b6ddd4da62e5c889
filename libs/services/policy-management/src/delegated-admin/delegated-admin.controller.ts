import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, GovernanceResources, TrustedCaller, ValidationError } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { CreateDelegationDto } from './dto/create-delegation.dto';
import { DelegationPage, DelegationResponse } from './dto/delegation.response';
import { ListDelegationsQuery } from './dto/list-delegations.query';
import { DelegatedAdminService } from './delegated-admin.service';

const resource = GovernanceResources.delegatedAdmin;

@ApiTags('delegated-admin')
@ApiBearerAuth()
@Controller('api/authorization/delegated-admin')
export class DelegatedAdminController {
  constructor(private readonly delegations: DelegatedAdminService) {}

  @Get()
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DelegationPage })
  list(@Caller() caller: TrustedCaller, @Query() query: ListDelegationsQuery) {
    return this.delegations.list(caller, query);
  }

  @Post()
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.Manage })
  @ApiCreatedResponse({ type: DelegationResponse })
  create(@Caller() caller: TrustedCaller, @Body() dto: CreateDelegationDto) {
    return this.delegations.create(caller, dto);
  }

  @Delete(':delegationId')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.Revoke })
  @ApiNoContentResponse()
  async revoke(
    @Caller() caller: TrustedCaller,
    @Param('delegationId', new ParseUUIDPipe({ exceptionFactory: () => new ValidationError({ delegationId: ['delegationId must be a UUID'] }) }))
    delegationId: string,
  ) {
    await this.delegations.revoke(caller, delegationId);
  }
}

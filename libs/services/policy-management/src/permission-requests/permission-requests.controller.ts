import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, GovernanceResources, TrustedCaller, ValidationError } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize, SkipAuthorization } from '@lp/authz-guard';
import { ActiveTenantGuard } from '../tenant-bootstrap/active-tenant.guard';
import { CreatePermissionRequestDto } from './dto/create-permission-request.dto';
import { DecidePermissionRequestDto } from './dto/decide-permission-request.dto';
import { ListPermissionRequestsQuery } from './dto/list-permission-requests.query';
import { PermissionRequestPage, PermissionRequestResponse } from './dto/permission-request.response';
import { PermissionRequestDecisions } from './permission-request-decisions';
import { PermissionRequestsService } from './permission-requests.service';

const resource = GovernanceResources.permissionRequests;
const requestId = () => new ParseUUIDPipe({ exceptionFactory: () => new ValidationError({ requestId: ['requestId must be a UUID'] }) });

@ApiTags('permission-requests')
@ApiBearerAuth()
@Controller('api/authorization/permission-requests')
export class PermissionRequestsController {
  constructor(
    private readonly requests: PermissionRequestsService,
    private readonly decisions: PermissionRequestDecisions,
  ) {}

  @Post()
  @SkipAuthorization('a caller files a request for itself; deciding it needs Approve/Reject')
  @UseGuards(ActiveTenantGuard)
  @ApiCreatedResponse({ type: PermissionRequestResponse })
  file(@Caller() caller: TrustedCaller, @Body() dto: CreatePermissionRequestDto) {
    return this.requests.file(caller, dto);
  }

  @Get('mine')
  @SkipAuthorization("answers only about the caller's own requests")
  @UseGuards(ActiveTenantGuard)
  @ApiOkResponse({ type: PermissionRequestPage })
  mine(@Caller() caller: TrustedCaller, @Query() query: ListPermissionRequestsQuery) {
    return this.requests.mine(caller, query);
  }

  @Get()
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.View })
  @ApiOkResponse({ type: PermissionRequestPage })
  list(@Caller() caller: TrustedCaller, @Query() query: ListPermissionRequestsQuery) {
    return this.requests.list(caller, query);
  }

  @Post(':requestId/approve')
  @HttpCode(200)
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.Approve })
  @ApiOkResponse({ type: PermissionRequestResponse })
  approve(@Caller() caller: TrustedCaller, @Param('requestId', requestId()) id: string, @Body() dto: DecidePermissionRequestDto) {
    return this.decisions.approve(caller, id, dto.note ?? null);
  }

  @Post(':requestId/reject')
  @HttpCode(200)
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.Reject })
  @ApiOkResponse({ type: PermissionRequestResponse })
  reject(@Caller() caller: TrustedCaller, @Param('requestId', requestId()) id: string, @Body() dto: DecidePermissionRequestDto) {
    return this.decisions.reject(caller, id, dto.note ?? null);
  }

  @Post(':requestId/revoke')
  @HttpCode(200)
  @Authorize({ module: 'authorization', resource, action: AuthorizationAction.Revoke })
  @ApiOkResponse({ type: PermissionRequestResponse })
  revoke(@Caller() caller: TrustedCaller, @Param('requestId', requestId()) id: string) {
    return this.decisions.revoke(caller, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorizationAction, GovernanceResources, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { CreateShareDto } from './dto/create-share.dto';
import { ListSharesQuery } from './dto/list-shares.query';
import { SharePage, ShareResponse } from './dto/share.response';
import { SharingService } from './sharing.service';

const sharing = { module: 'authorization', resource: GovernanceResources.sharing } as const;

@ApiTags('sharing')
@ApiBearerAuth()
@Controller('api/authorization/sharing')
export class SharingController {
  constructor(private readonly sharing: SharingService) {}

  @Get()
  @Authorize({ ...sharing, action: AuthorizationAction.View })
  @ApiOkResponse({ type: SharePage })
  list(@Caller() caller: TrustedCaller, @Query() query: ListSharesQuery) {
    return this.sharing.list(caller.tenantId, query);
  }

  @Post()
  @Authorize({ ...sharing, action: AuthorizationAction.Manage })
  @ApiCreatedResponse({ type: ShareResponse, description: 'The share was created.' })
  @ApiOkResponse({ type: ShareResponse, description: 'An identical share already existed; nothing changed.' })
  @ApiUnprocessableEntityResponse({ description: 'Authorization.Sharing.RoleUnknown: a role share names no role of the tenant.' })
  async share(@Caller() caller: TrustedCaller, @Body() dto: CreateShareDto, @Res({ passthrough: true }) res: Response): Promise<ShareResponse> {
    const { share, created } = await this.sharing.share(caller, dto);
    res.status(created ? 201 : 200);
    return share;
  }

  @Delete(':shareId')
  @HttpCode(204)
  @Authorize({ ...sharing, action: AuthorizationAction.Revoke })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No share with that id in the tenant.' })
  async revoke(@Caller() caller: TrustedCaller, @Param('shareId') shareId: string): Promise<void> {
    await this.sharing.revoke(caller, shareId);
  }
}

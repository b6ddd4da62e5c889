import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { ListTenantsQuery } from './dto/list-tenants.query';
import { TenantResponse, TenantSummary } from './dto/tenant.response';
import { UpdateTenantStatusDto } from './dto/update-tenant-status.dto';
import { normalizeTenantPage } from './tenant-paging';
import { TenantsService } from './tenants.service';

const tenants = { module: 'operations', resource: 'tenants' } as const;

/** The tenant store (docs/tenants.md). Every route is platform-level: only operators of the platform tenant are ever permitted. */
@ApiTags('tenants')
@ApiBearerAuth()
@Controller('api/operations/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @Authorize({ ...tenants, action: AuthorizationAction.View })
  @ApiOkResponse({ type: TenantSummary, isArray: true, description: 'One page in id order; no total count (specs/operations.md §2).' })
  list(@Query() query: ListTenantsQuery): Promise<TenantSummary[]> {
    return this.tenants.list(normalizeTenantPage(query.pageIndex, query.pageSize));
  }

  @Get(':id')
  @Authorize({ ...tenants, action: AuthorizationAction.View })
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no tenant with that id.' })
  get(@Param('id') id: string): Promise<TenantResponse> {
    return this.tenants.get(id);
  }

  @Post()
  @Authorize({ ...tenants, action: AuthorizationAction.Manage })
  @ApiCreatedResponse({ type: TenantResponse, description: 'The tenant was created and its first administrator set up.' })
  @ApiOkResponse({ type: TenantResponse, description: 'The same tenant already existed (a retry): answered as it is, its bootstrap run again.' })
  @ApiConflictResponse({
    description:
      'Operations.TenantConflict: the id exists with another name or adminSubject. Operations.PlatformTenantProtected: the id is the platform tenant.',
  })
  @ApiServiceUnavailableResponse({ description: 'Operations.TenantBootstrapUnavailable: recorded, administrator not set up yet; repeat the request.' })
  async create(@Caller() caller: TrustedCaller, @Body() dto: CreateTenantDto, @Res({ passthrough: true }) res: Response): Promise<TenantResponse> {
    const { tenant, created } = await this.tenants.create(caller, dto);
    res.status(created ? 201 : 200);
    return tenant;
  }

  @Patch(':id')
  @Authorize({ ...tenants, action: AuthorizationAction.Manage })
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no tenant with that id.' })
  @ApiConflictResponse({ description: 'Operations.PlatformTenantProtected: the platform tenant cannot be suspended.' })
  @ApiServiceUnavailableResponse({ description: 'Operations.TenantStatusUnavailable: saved, not yet in force for decisions; repeat the request.' })
  setStatus(@Caller() caller: TrustedCaller, @Param('id') id: string, @Body() dto: UpdateTenantStatusDto): Promise<TenantResponse> {
    return this.tenants.setStatus(caller, id, dto.status);
  }
}

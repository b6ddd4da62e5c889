import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { SkipAuthorization } from '@lp/authz-guard';
import { ActiveTenantGuard } from '../tenant-bootstrap/active-tenant.guard';
import { PermissionTreeResponse } from '../permissions/dto/permission-tree.response';
import { PermissionTree } from '../permissions/permission-tree';
import { PermissionSource } from './effective-permissions.reader';
import { MyPermissionsService } from './my-permissions.service';

export class PermissionSourceResponse {
  @ApiProperty({ enum: ['role', 'temporaryGrant', 'delegation'] }) kind!: PermissionSource['kind'];
  @ApiPropertyOptional({ description: 'kind role: the role name' }) role?: string;
  @ApiPropertyOptional({ description: 'kind temporaryGrant or delegation: the grant id' }) grantId?: string;
  @ApiPropertyOptional({ description: 'kind delegation: the delegator, for whom the caller may act with a delegated token' }) from?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'kind temporaryGrant or delegation: when it stops counting' }) expiresAt?: string;
}

export class HeldPermissionResponse {
  @ApiProperty({ example: 'cases.case.view' }) code!: string;
  @ApiProperty({ type: [PermissionSourceResponse], description: 'Roles (by name), then temporary grants, then delegations received (by expiry).' })
  sources!: PermissionSourceResponse[];
}

export class DisabledFeatureResponse {
  @ApiProperty({ example: 'chat' }) feature!: string;
  @ApiProperty({ type: [String], description: 'Modules switched off while the feature is disabled: nothing in them is permitted.' }) modules!: string[];
}

export class MyPermissionsResponse {
  @ApiProperty() tenantId!: string;
  @ApiProperty() subject!: string;
  @ApiProperty({ type: [String], description: 'Codes the caller holds itself (role permissions, active temporary grants), sorted.' }) codes!: string[];
  @ApiProperty({ type: [HeldPermissionResponse], description: 'Every permission with its sources, delegations received included, sorted by code.' })
  permissions!: HeldPermissionResponse[];
  @ApiProperty({ type: [DisabledFeatureResponse], description: "The tenant's disabled features and the modules they switch off." })
  disabledFeatures!: DisabledFeatureResponse[];
}

/** Self-service: the caller's tenant and subject come from the token, never from the request. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('api/authorization/me')
export class MeController {
  constructor(private readonly mine: MyPermissionsService) {}

  @Get('permissions')
  @SkipAuthorization('answers about the caller itself')
  @UseGuards(ActiveTenantGuard)
  @ApiOkResponse({ type: MyPermissionsResponse })
  async permissions(@Caller() caller: TrustedCaller): Promise<MyPermissionsResponse> {
    const { codes, permissions, disabledFeatures } = await this.mine.projection(caller.tenantId, caller.subject);
    return { tenantId: caller.tenantId, subject: caller.subject, codes, permissions, disabledFeatures };
  }

  @Get('menu')
  @SkipAuthorization('answers about the caller itself')
  @UseGuards(ActiveTenantGuard)
  @ApiOkResponse({ type: PermissionTreeResponse })
  async menu(@Caller() caller: TrustedCaller): Promise<PermissionTree> {
    return (await this.mine.projection(caller.tenantId, caller.subject)).menu;
  }
}

import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { SkipAuthorization } from '@lp/authz-guard';
import { PermissionTreeResponse } from '../permissions/dto/permission-tree.response';
import { PermissionTree } from '../permissions/permission-tree';
import { MyPermissionsService } from './my-permissions.service';

export class MyPermissionsResponse {
  @ApiProperty() tenantId: string;
  @ApiProperty() subject: string;
  @ApiProperty({ type: [String], description: 'Codes from role permissions and active temporary grants, sorted.' }) codes: string[];
}

/** Self-service: the caller's tenant and subject come from the token, never from the request. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('api/authorization/me')
export class MeController {
  constructor(private readonly mine: MyPermissionsService) {}

  @Get('permissions')
  @SkipAuthorization('answers about the caller itself')
  @ApiOkResponse({ type: MyPermissionsResponse })
  async permissions(@Caller() caller: TrustedCaller): Promise<MyPermissionsResponse> {
    const { codes } = await this.mine.projection(caller.tenantId, caller.subject);
    return { tenantId: caller.tenantId, subject: caller.subject, codes };
  }

  @Get('menu')
  @SkipAuthorization('answers about the caller itself')
  @ApiOkResponse({ type: PermissionTreeResponse })
  async menu(@Caller() caller: TrustedCaller): Promise<PermissionTree> {
    return (await this.mine.projection(caller.tenantId, caller.subject)).menu;
  }
}

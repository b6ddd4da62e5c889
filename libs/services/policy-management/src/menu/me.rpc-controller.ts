import { UseGuards } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AuthzRpc, MyPermissionsReply, ReceivedOf } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { ActiveTenantGuard } from '../tenant-bootstrap/active-tenant.guard';
import { MyPermissionsService } from './my-permissions.service';

/**
 * `authz.me.permissions`: `GET /api/authorization/me/permissions` over the broker, for services
 * that answer a caller about itself (the MCP gateway's `my_permissions` tool). Same projection,
 * same refusal for a suspended tenant.
 */
@RpcController()
export class MeRpcController {
  constructor(private readonly mine: MyPermissionsService) {}

  @RpcHandler(AuthzRpc.myPermissions)
  @SkipAuthorization('answers about the caller itself')
  @UseGuards(ActiveTenantGuard)
  async permissions(@Payload() message: ReceivedOf<typeof AuthzRpc.myPermissions>): Promise<MyPermissionsReply> {
    const { tenantId, subject } = message.caller;
    const { codes, permissions, disabledFeatures } = await this.mine.projection(tenantId, subject);
    return { tenantId, subject, codes, permissions, disabledFeatures };
  }
}

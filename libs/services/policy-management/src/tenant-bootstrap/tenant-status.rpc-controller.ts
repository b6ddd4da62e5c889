import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, AuthzRpc, ReceivedOf, TenantStatusResult } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { TenantStatusService } from './tenant-status.service';

/**
 * `authz.tenant.status`, asked by operations when a platform administrator suspends or reactivates
 * a tenant. `authorization.tenant.update` is platform-level: no tenant can suspend (or lift the
 * suspension of) any tenant, its own included.
 */
@RpcController()
export class TenantStatusRpcController {
  constructor(private readonly statuses: TenantStatusService) {}

  @RpcHandler(AuthzRpc.tenantStatus)
  @Authorize({ module: 'authorization', resource: 'tenant', action: AuthorizationAction.Update })
  record(@Payload() message: ReceivedOf<typeof AuthzRpc.tenantStatus>): Promise<TenantStatusResult> {
    return this.statuses.record(message.caller, message.payload);
  }
}

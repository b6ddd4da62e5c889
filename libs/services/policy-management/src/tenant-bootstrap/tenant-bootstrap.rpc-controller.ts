import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, AuthzRpc, ReceivedOf, TenantBootstrapResult } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { TenantBootstrapService } from './tenant-bootstrap.service';

/**
 * `authz.tenant.bootstrap`, asked by operations when a platform administrator creates a tenant.
 * `authorization.tenant.create` is platform-level: only callers of the platform tenant are ever
 * permitted it, so no tenant can bootstrap (or re-bootstrap) another.
 */
@RpcController()
export class TenantBootstrapRpcController {
  constructor(private readonly tenants: TenantBootstrapService) {}

  @RpcHandler(AuthzRpc.tenantBootstrap)
  @Authorize({ module: 'authorization', resource: 'tenant', action: AuthorizationAction.Create })
  bootstrap(@Payload() message: ReceivedOf<typeof AuthzRpc.tenantBootstrap>): Promise<TenantBootstrapResult> {
    return this.tenants.bootstrap(message.caller, message.payload);
  }
}

import { Module } from '@nestjs/common';
import { ActiveTenantGuard } from './active-tenant.guard';
import { TenantBootstrapRpcController } from './tenant-bootstrap.rpc-controller';
import { TenantBootstrapService } from './tenant-bootstrap.service';
import { TenantStatusRpcController } from './tenant-status.rpc-controller';
import { TenantStatusService } from './tenant-status.service';

/** The policy side of the tenant lifecycle operations drives: a new tenant's first administrator, and its status. */
@Module({
  controllers: [TenantBootstrapRpcController, TenantStatusRpcController],
  providers: [TenantBootstrapService, TenantStatusService, ActiveTenantGuard],
  exports: [ActiveTenantGuard],
})
export class TenantBootstrapModule {}

import { Module } from '@nestjs/common';
import { TenantBootstrapRpcController } from './tenant-bootstrap.rpc-controller';
import { TenantBootstrapService } from './tenant-bootstrap.service';

@Module({
  controllers: [TenantBootstrapRpcController],
  providers: [TenantBootstrapService],
})
export class TenantBootstrapModule {}

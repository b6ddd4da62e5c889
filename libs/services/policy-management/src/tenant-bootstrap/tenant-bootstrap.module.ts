import { Module } from '@nestjs/common';
import { MenuModule } from '../menu/menu.module';
import { TenantBootstrapRpcController } from './tenant-bootstrap.rpc-controller';
import { TenantBootstrapService } from './tenant-bootstrap.service';

@Module({
  imports: [MenuModule],
  controllers: [TenantBootstrapRpcController],
  providers: [TenantBootstrapService],
})
export class TenantBootstrapModule {}

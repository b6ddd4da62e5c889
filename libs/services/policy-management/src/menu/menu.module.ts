import { Module } from '@nestjs/common';
import { PermissionsModule } from '../permissions/permissions.module';
import { EffectivePermissionsReader } from './effective-permissions.reader';
import { MeController } from './me.controller';
import { MeRpcController } from './me.rpc-controller';
import { MenuInvalidationListener } from './menu-invalidation.listener';
import { MyPermissionsService } from './my-permissions.service';

/** GET /me/permissions and /me/menu (and `authz.me.permissions` over RPC), and the per-process menu projections kept in step by events. */
@Module({
  imports: [PermissionsModule],
  controllers: [MeController, MeRpcController],
  providers: [MenuInvalidationListener, EffectivePermissionsReader, MyPermissionsService],
})
export class MenuModule {}

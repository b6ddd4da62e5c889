import { Module } from '@nestjs/common';
import { PermissionsModule } from '../permissions/permissions.module';
import { EffectivePermissionsReader } from './effective-permissions.reader';
import { MeController } from './me.controller';
import { MenuInvalidationListener } from './menu-invalidation.listener';
import { MyPermissionsService } from './my-permissions.service';

/** GET /me/permissions and /me/menu, and the per-process menu projections kept in step by events. */
@Module({
  imports: [PermissionsModule],
  controllers: [MeController],
  providers: [MenuInvalidationListener, EffectivePermissionsReader, MyPermissionsService],
})
export class MenuModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantEntity } from '../store';
import { PlatformTenantSeeder } from './platform-tenant.seeder';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

/** The tenant store (`platform.tenant`), its lifecycle routes and the platform tenant's seed. */
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity])],
  controllers: [TenantsController],
  providers: [TenantsService, PlatformTenantSeeder],
})
export class TenantsModule {}

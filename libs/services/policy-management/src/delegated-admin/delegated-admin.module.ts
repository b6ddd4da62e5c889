import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DelegatedGrantEntity } from '../policy-store/entities/delegated-grant.entity';
import { DelegatedAdminController } from './delegated-admin.controller';
import { DelegatedAdminRepository } from './delegated-admin.repository';
import { DelegatedAdminService } from './delegated-admin.service';

@Module({
  imports: [TypeOrmModule.forFeature([DelegatedGrantEntity])],
  controllers: [DelegatedAdminController],
  providers: [DelegatedAdminService, DelegatedAdminRepository],
})
export class DelegatedAdminModule {}

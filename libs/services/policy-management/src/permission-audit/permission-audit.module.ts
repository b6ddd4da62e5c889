import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PolicyChangeLogEntity } from '../policy-store/entities/policy-change-log.entity';
import { PermissionAuditController } from './permission-audit.controller';
import { PermissionAuditService } from './permission-audit.service';
import { PolicyChangeLogRepository } from './policy-change-log.repository';

@Module({
  imports: [TypeOrmModule.forFeature([PolicyChangeLogEntity])],
  controllers: [PermissionAuditController],
  providers: [PermissionAuditService, PolicyChangeLogRepository],
})
export class PermissionAuditModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ToolCallAudit } from './tool-call-audit';
import { ToolCallAuditEntity } from './tool-call-audit.entity';
import { ToolCallAuditRetention } from './tool-call-audit-retention';

/** The tool-call audit: its writer (with the log line and the metric) and its retention job. */
@Module({
  imports: [TypeOrmModule.forFeature([ToolCallAuditEntity])],
  providers: [ToolCallAudit, ToolCallAuditRetention],
  exports: [ToolCallAudit],
})
export class ToolCallAuditModule {}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { JobHandler, JobRunContext } from '@lp/platform/jobs';
import { describeRetentionRun, purgeInBatches, retentionCutoff } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { McpGatewayConfig, mcpGatewayConfig } from '../mcp-gateway.config';
import { McpGatewayJobs } from './tool-call-audit.jobs';

/** Keeps the tool-call audit bounded: rows older than MCP_AUDIT_RETENTION_DAYS go, in short batches. */
@Injectable()
export class ToolCallAuditRetention {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(mcpGatewayConfig) private readonly config: McpGatewayConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  @JobHandler(McpGatewayJobs.toolCallAuditRetention.jobName)
  async run({ now }: JobRunContext): Promise<string> {
    const run = await purgeInBatches(this.dataSource, {
      table: '"mcp"."tool_call_audit"',
      timeColumn: '"created_at"',
      keyColumns: ['"id"'],
      cutoff: retentionCutoff(now, this.config.MCP_AUDIT_RETENTION_DAYS),
      batchSize: this.platform.RETENTION_BATCH_SIZE,
    });
    return describeRetentionRun(run);
  }
}

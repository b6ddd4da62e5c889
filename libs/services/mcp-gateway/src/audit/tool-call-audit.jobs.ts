import { FleetService } from '@lp/contracts';
import { declareJob } from '@lp/platform/jobs';
import { RETENTION_DEFAULT_CRON } from '@lp/platform/runtime';

/** mcp-gateway's own background work (run by operations' scheduler, exactly once across replicas). */
export const McpGatewayJobs = {
  /** `mcp-gateway.tool-call-audit-retention` (`ToolCallAuditRetention.run`). */
  toolCallAuditRetention: declareJob({
    service: FleetService.mcpGateway,
    name: 'tool-call-audit-retention',
    description: 'Deletes MCP tool-call audit rows older than MCP_AUDIT_RETENTION_DAYS, in batches of RETENTION_BATCH_SIZE',
    moduleName: 'ToolCallAuditModule',
    schedule: { cron: RETENTION_DEFAULT_CRON },
  }),
} as const;

export const MCP_GATEWAY_JOBS = Object.values(McpGatewayJobs);

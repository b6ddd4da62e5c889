import { authzGuard } from '@lp/authz-guard';
import { FleetService } from '@lp/contracts';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';
import { ToolCallAuditEntity } from './audit/tool-call-audit.entity';
import { MCP_GATEWAY_JOBS } from './audit/tool-call-audit.jobs';
import { McpGatewayModule } from './mcp-gateway.module';
import { CreateToolCallAuditTable1764100000000 } from './migrations/1764100000000-CreateToolCallAuditTable';

export const MCP_SCHEMA = 'mcp';

/**
 * mcp-gateway: `/mcp` (Streamable HTTP, stateless) and its RFC 9728 protected-resource metadata.
 * Each tool call reaches the owning service over RPC as the caller, never as the gateway. Its one
 * table is the tool-call audit ("stateless" is about MCP sessions, of which none are kept).
 */
export const mcpGatewayService = defineService({
  name: FleetService.mcpGateway,
  authorization: authzGuard,
  routePrefixes: ['/mcp', '/.well-known/oauth-protected-resource'],
  database: {
    schema: MCP_SCHEMA,
    entities: [ToolCallAuditEntity, OutboxMessage, ProcessedEvent],
    migrations: [...messagingMigrations(MCP_SCHEMA), CreateToolCallAuditTable1764100000000],
  },
  modules: [McpGatewayModule],
  jobs: MCP_GATEWAY_JOBS,
  openApi: {
    title: 'MCP gateway',
    description: "The platform's operations as Model Context Protocol tools for AI clients, at /mcp (Streamable HTTP).",
  },
});

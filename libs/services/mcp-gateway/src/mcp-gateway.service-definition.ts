import { authzGuard } from '@lp/authz-guard';
import { FleetService } from '@lp/contracts';
import { createMessagingTablesMigration, createProcessedEventTimeIndexMigration, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';
import { McpGatewayModule } from './mcp-gateway.module';

export const MCP_SCHEMA = 'mcp';

/**
 * mcp-gateway: `/mcp` (Streamable HTTP, stateless) and its RFC 9728 protected-resource metadata.
 * Each tool call reaches the owning service over RPC as the caller, never as the gateway.
 */
export const mcpGatewayService = defineService({
  name: FleetService.mcpGateway,
  authorization: authzGuard,
  routePrefixes: ['/mcp', '/.well-known/oauth-protected-resource'],
  database: {
    schema: MCP_SCHEMA,
    entities: [OutboxMessage, ProcessedEvent],
    migrations: [createMessagingTablesMigration(MCP_SCHEMA), createProcessedEventTimeIndexMigration(MCP_SCHEMA)],
  },
  modules: [McpGatewayModule],
  openApi: {
    title: 'MCP gateway',
    description: "The platform's operations as Model Context Protocol tools for AI clients, at /mcp (Streamable HTTP).",
  },
});

import { Module } from '@nestjs/common';
import { ToolCallAuditModule } from '../audit/tool-call-audit.module';
import { McpToolCalls } from './mcp-tool-calls';
import { MCP_TOOL_DECLARATIONS, McpToolRegistry } from './mcp-tool-registry';
import { MCP_TOOLS } from './mcp-tools';

/** The tool catalog, tools/list per caller and tools/call. */
@Module({
  imports: [ToolCallAuditModule],
  providers: [{ provide: MCP_TOOL_DECLARATIONS, useValue: MCP_TOOLS }, McpToolRegistry, McpToolCalls],
  exports: [McpToolRegistry, McpToolCalls, ToolCallAuditModule],
})
export class McpToolsModule {}

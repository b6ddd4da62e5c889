export * from './mcp-gateway.service-definition';
export { mcpGatewayConfig } from './mcp-gateway.config';
export { McpGatewayJobs } from './audit/tool-call-audit.jobs';
export { ToolCallAudit } from './audit/tool-call-audit';
export { MCP_TOOLS } from './tools/mcp-tools';
export { problemOfResult, TOOL_PROBLEM_META_KEY } from './tools/tool-outcome';

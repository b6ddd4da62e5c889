import { ConfigOf, declareConfig } from '@lp/platform/config';

/** mcp-gateway's own keys (the platform keys, PORT and JWT_* among them, are the runtime's). */
export const mcpGatewayConfig = declareConfig('mcp-gateway', {
  MCP_PUBLIC_BASE_URL: {
    type: 'url',
    group: 'mcp',
    description:
      'absolute base URL clients reach the gateway at (e.g. https://api.example.com), for the `resource` of the protected-resource metadata and the 401 challenge; unset = from the request Host (validated against MCP_ALLOWED_HOSTS)',
  },
  MCP_ALLOWED_HOSTS: {
    type: 'string',
    group: 'mcp',
    description: 'comma-separated host names (no port) accepted in the Host header of /mcp and the metadata routes (DNS-rebinding protection)',
    default: 'localhost,127.0.0.1,[::1]',
    minLength: 1,
  },
  MCP_ALLOWED_ORIGINS: {
    type: 'string',
    group: 'mcp',
    description:
      'comma-separated origins (scheme://host[:port]) a browser may call /mcp from; unset = an Origin whose host name is in MCP_ALLOWED_HOSTS. A request without Origin (not a browser) is not refused by this check',
  },
  MCP_CALLER_RATE_LIMIT: {
    type: 'int',
    group: 'mcp',
    description: 'requests to /mcp per caller (tenant + subject) per MCP_RATE_WINDOW_MS',
    default: 120,
    min: 1,
  },
  MCP_TENANT_RATE_LIMIT: {
    type: 'int',
    group: 'mcp',
    description: 'requests to /mcp per tenant (all its callers) per MCP_RATE_WINDOW_MS',
    default: 1200,
    min: 1,
  },
  MCP_RATE_WINDOW_MS: { type: 'int', group: 'mcp', description: 'window of the two /mcp rate limits', default: 60000, min: 100 },
  MCP_TOOL_TIMEOUT_MS: {
    type: 'int',
    group: 'mcp',
    description: 'how long a tool waits for the owning service to answer over RPC',
    default: 10000,
    min: 100,
    max: 120000,
  },
  MCP_AUDIT_FLUSH_MS: {
    type: 'int',
    group: 'mcp',
    description: 'how long a tool-call audit row may wait in memory before its batch is written (also written at 200 rows and at shutdown)',
    default: 50,
    min: 1,
    max: 10000,
  },
  MCP_AUDIT_RETENTION_DAYS: { type: 'int', group: 'retention', description: 'days the tool-call audit (mcp.tool_call_audit) keeps a row', default: 90, min: 1 },
});

export type McpGatewayConfig = ConfigOf<typeof mcpGatewayConfig>;

/** A comma-separated key as a list: trimmed, empty entries dropped. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

import { DomainError } from '@lp/platform/http';

/** The 403s of the MCP route (spec §5.2): the tenant context is missing, not the token's, or without `mcp.access`. */
export class McpTenantRequiredError extends DomainError {
  constructor() {
    super('Mcp.TenantRequired', 403, 'The X-Tenant-Id header is required on /mcp and must name the tenant of the token.');
  }
}

export class McpTenantMismatchError extends DomainError {
  constructor() {
    super('Mcp.TenantMismatch', 403, 'X-Tenant-Id does not name the tenant of the token.');
  }
}

export class McpFeatureDisabledError extends DomainError {
  constructor() {
    super('Mcp.FeatureDisabled', 403, 'The feature mcp.access is off for this tenant.');
  }
}

/** GET with `Accept: text/event-stream`: the stateless gateway opens no server-to-client stream (MCP: 405 says so). */
export class McpStreamNotOfferedError extends DomainError {
  constructor() {
    super('Mcp.StreamNotOffered', 405, 'This endpoint is stateless and answers in JSON: it offers no server-initiated event stream; POST JSON-RPC messages.');
  }
}

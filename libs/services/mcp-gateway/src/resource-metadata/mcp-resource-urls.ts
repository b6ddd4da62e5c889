import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { InjectConfig } from '@lp/platform/config';
import { McpGatewayConfig, mcpGatewayConfig } from '../mcp-gateway.config';

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * The absolute URLs the gateway names to clients: the MCP endpoint (the RFC 9728 `resource`) and its
 * metadata document. From MCP_PUBLIC_BASE_URL when set (behind a proxy the request's Host is the
 * proxy's business); otherwise from the request's Host, which the DNS-rebinding check has already
 * held against MCP_ALLOWED_HOSTS before any handler or guard runs.
 */
@Injectable()
export class McpResourceUrls {
  private readonly configuredBase?: string;

  constructor(@InjectConfig(mcpGatewayConfig) config: McpGatewayConfig) {
    this.configuredBase = config.MCP_PUBLIC_BASE_URL?.replace(/\/+$/, '');
  }

  base(request: Request): string {
    if (this.configuredBase) return this.configuredBase;
    // `request.protocol` is http unless Express trusts a proxy: without one there is no TLS here.
    return `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`;
  }

  resource(request: Request): string {
    return `${this.base(request)}${MCP_PATH}`;
  }

  /** RFC 9728 §3.1: the well-known URI of resource `<base>/mcp` is `<base>/.well-known/oauth-protected-resource/mcp`. */
  metadata(request: Request): string {
    return `${this.base(request)}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`;
  }
}

import { Injectable, NestMiddleware } from '@nestjs/common';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { InjectConfig } from '@lp/platform/config';
import { problem, PROBLEM_CONTENT_TYPE } from '@lp/platform/http';
import { CorrelationContext } from '@lp/platform/observability';
import { listOf, McpGatewayConfig, mcpGatewayConfig } from '../mcp-gateway.config';

/** Whether a browser `Origin` may call the gateway: listed exactly, or (no list) its host name is an allowed host. */
export function originAllowed(origin: string, allowedOrigins: readonly string[], allowedHosts: readonly string[]): boolean {
  if (allowedOrigins.length > 0) return allowedOrigins.includes(origin);
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && allowedHosts.includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * DNS-rebinding protection for /mcp and the metadata routes, before authentication: a page on a
 * rebinding domain reaches a local gateway with its own Host and Origin, so both are held against
 * the configured lists. The Host check is the SDK's own middleware (`hostHeaderValidation`, the
 * replacement of the transport's deprecated `allowedHosts` option; it answers 403 with a JSON-RPC
 * error body, which MCP clients read). The SDK has no Origin middleware (the transport option is
 * deprecated too), so the Origin check is here and answers 403 problem+json `Mcp.OriginNotAllowed`.
 */
@Injectable()
export class DnsRebindingMiddleware implements NestMiddleware {
  private readonly hostCheck: RequestHandler;
  private readonly allowedHosts: string[];
  private readonly allowedOrigins: string[];

  constructor(@InjectConfig(mcpGatewayConfig) config: McpGatewayConfig) {
    this.allowedHosts = listOf(config.MCP_ALLOWED_HOSTS);
    this.allowedOrigins = listOf(config.MCP_ALLOWED_ORIGINS);
    this.hostCheck = hostHeaderValidation(this.allowedHosts);
  }

  use(request: Request, response: Response, next: NextFunction): void {
    this.hostCheck(request, response, () => {
      const origin = request.headers.origin;
      if (origin === undefined || originAllowed(origin, this.allowedOrigins, this.allowedHosts)) return next();
      const correlationId = CorrelationContext.current();
      response
        .status(403)
        .type(PROBLEM_CONTENT_TYPE)
        .send(
          JSON.stringify(problem(403, 'Mcp.OriginNotAllowed', 'Requests from this Origin are not accepted (DNS-rebinding protection).', { correlationId })),
        );
    });
  }
}

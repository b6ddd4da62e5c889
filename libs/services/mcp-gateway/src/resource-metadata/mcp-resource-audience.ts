import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RouteAudiences } from '@lp/platform/auth';
import { McpResourceUrls } from './mcp-resource-urls';

/**
 * The audience /mcp accepts besides JWT_AUDIENCE: its own RFC 9728 `resource`. A client that follows
 * MCP authorization asks its issuer for a token with `resource=<that URL>` (RFC 8707) and gets `aud`
 * = that URL; MCP requires the server to accept tokens issued for it, and only those. Accepted at
 * /mcp only: such a token is not meant for the platform's other routes, which refuse it.
 */
@Injectable()
export class McpResourceAudience implements RouteAudiences {
  constructor(private readonly urls: McpResourceUrls) {}

  audiencesFor(request: Request): string[] {
    return [this.urls.resource(request)];
  }
}

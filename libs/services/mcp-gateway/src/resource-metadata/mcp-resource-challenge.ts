import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { BearerChallengeParameters } from '@lp/platform/auth';
import { McpResourceUrls } from './mcp-resource-urls';

/**
 * The auth-params of a 401 on /mcp (MCP authorization, RFC 9728 §5.1): `resource_metadata` names the
 * metadata document, from which a client discovers the authorization server.
 */
@Injectable()
export class McpResourceChallenge implements BearerChallengeParameters {
  constructor(private readonly urls: McpResourceUrls) {}

  parametersFor(request: Request): Record<string, string> {
    return { resource_metadata: this.urls.metadata(request) };
  }
}

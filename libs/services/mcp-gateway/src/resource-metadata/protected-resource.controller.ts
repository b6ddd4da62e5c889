import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '@lp/platform/auth';
import { InjectConfig } from '@lp/platform/config';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { ProtectedResourceMetadataResponse } from './dto/protected-resource-metadata.response';
import { McpResourceUrls, PROTECTED_RESOURCE_METADATA_PATH } from './mcp-resource-urls';

export const MCP_RESOURCE_NAME = 'Legal platform MCP gateway';

/**
 * RFC 9728 protected-resource metadata, public as the RFC requires (a client reads it after a 401,
 * before it holds a token). Served at the well-known root and at its `/mcp` suffix form (§3.1);
 * the 401 challenge on /mcp names the latter.
 */
@ApiTags('MCP')
@Public()
@Controller(PROTECTED_RESOURCE_METADATA_PATH.slice(1))
export class ProtectedResourceController {
  private readonly authorizationServers?: string[];

  constructor(
    private readonly urls: McpResourceUrls,
    @InjectConfig(platformConfig) platform: PlatformConfig,
  ) {
    // JWT_ISSUER is a client's authorization server when tokens come from it (JWKS mode) and it is a
    // URL a client can discover from (RFC 8414). With JWT_SECRET the platform signs its own tokens
    // and offers no token endpoint, so the member is left out whatever JWT_ISSUER says.
    this.authorizationServers = platform.JWT_JWKS_URI && /^https?:\/\//.test(platform.JWT_ISSUER) ? [platform.JWT_ISSUER] : undefined;
  }

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'OAuth 2.0 protected-resource metadata of /mcp (RFC 9728)' })
  @ApiOkResponse({ type: ProtectedResourceMetadataResponse })
  root(@Req() request: Request): ProtectedResourceMetadataResponse {
    return this.document(request);
  }

  @Get('mcp')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'OAuth 2.0 protected-resource metadata of /mcp, at its RFC 9728 §3.1 path' })
  @ApiOkResponse({ type: ProtectedResourceMetadataResponse })
  forMcp(@Req() request: Request): ProtectedResourceMetadataResponse {
    return this.document(request);
  }

  private document(request: Request): ProtectedResourceMetadataResponse {
    return {
      resource: this.urls.resource(request),
      ...(this.authorizationServers ? { authorization_servers: this.authorizationServers } : {}),
      bearer_methods_supported: ['header'],
      resource_name: MCP_RESOURCE_NAME,
    };
  }
}

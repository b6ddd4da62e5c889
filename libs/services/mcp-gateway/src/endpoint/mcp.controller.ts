import { Controller, Get, Head, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { SkipAuthorization } from '@lp/authz-guard';
import type { TrustedCaller } from '@lp/contracts';
import { AcceptAudiences, BearerChallenge, Caller } from '@lp/platform/auth';
import { USER_POLICY } from '@lp/platform/http';
import { McpResourceAudience } from '../resource-metadata/mcp-resource-audience';
import { McpResourceChallenge } from '../resource-metadata/mcp-resource-challenge';
import { McpResourceUrls } from '../resource-metadata/mcp-resource-urls';
import { McpEndpointResponse } from './dto/mcp-endpoint.response';
import { McpAccessGuard } from './mcp-access.guard';
import { McpProtocolServerFactory } from './mcp-protocol-server';
import { McpThrottlerGuard } from './mcp-throttler.guard';
import { McpStreamNotOfferedError } from './mcp.errors';

/**
 * `/mcp`, the Streamable HTTP endpoint (spec §4 "MCP route"), stateless with JSON responses: each
 * POST gets its own SDK transport and server, bound to the caller the token names. A Nest controller
 * (not raw Express) so the platform's authentication (with the RFC 9728 challenge), the rate limits,
 * problem+json errors, correlation and the OpenAPI document apply as on every route.
 *
 * Tokens for JWT_AUDIENCE and tokens for this endpoint's own URL (RFC 8707, `McpResourceAudience`)
 * are both accepted here.
 *
 * Guards, in order: the bearer token (global), then the /mcp rate limits, then the tenant gate
 * (X-Tenant-Id, `mcp.access`). The authorization guard is skipped here only: no tool is run by this
 * route itself; each tool call is decided by the owning service as the caller.
 */
@ApiTags('MCP')
@ApiBearerAuth()
@ApiHeader({ name: 'X-Tenant-Id', required: true, description: "must name the token's tenant" })
@BearerChallenge(McpResourceChallenge)
@AcceptAudiences(McpResourceAudience)
@SkipAuthorization('each tool call is authorized by the owning service as the caller; the tenant and mcp.access are checked by McpAccessGuard')
@SkipThrottle({ [USER_POLICY]: true })
@UseGuards(McpThrottlerGuard, McpAccessGuard)
@Controller('mcp')
export class McpController {
  constructor(
    private readonly servers: McpProtocolServerFactory,
    private readonly urls: McpResourceUrls,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'MCP JSON-RPC messages (initialize, tools/list, tools/call, ...) over Streamable HTTP',
    description: 'Accept must list application/json and text/event-stream; answers are application/json (stateless, no session id).',
  })
  @ApiBody({
    schema: { type: 'object', description: 'a JSON-RPC 2.0 message of the Model Context Protocol', example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  })
  @ApiOkResponse({ description: 'the JSON-RPC response; 202 with no body for a notification' })
  async post(@Caller() caller: TrustedCaller, @Req() request: Request, @Res() response: Response): Promise<void> {
    const server = this.servers.create(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The platform's JSON parser has read the body already; the transport takes it parsed.
    await transport.handleRequest(request, response, request.body);
  }

  // Declared before GET: Express would otherwise answer HEAD with the GET handler.
  @Head()
  @HttpCode(200)
  @ApiOperation({ summary: 'Probe: 200 when the token, the tenant header and mcp.access admit the caller' })
  head(): void {
    return undefined;
  }

  @Get()
  @ApiProduces('application/json')
  @ApiOperation({
    summary: 'Describes the endpoint for an admitted caller',
    description: 'Stateless JSON mode offers no server-initiated stream: a GET that asks for text/event-stream is answered 405, as MCP specifies.',
  })
  @ApiOkResponse({ type: McpEndpointResponse })
  describe(@Caller() caller: TrustedCaller, @Req() request: Request, @Res({ passthrough: true }) response: Response): McpEndpointResponse {
    if ((request.headers.accept ?? '').includes('text/event-stream')) {
      response.setHeader('Allow', 'GET, HEAD, POST');
      throw new McpStreamNotOfferedError();
    }
    return {
      endpoint: this.urls.resource(request),
      transport: 'streamable-http',
      protocolVersion: LATEST_PROTOCOL_VERSION,
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      sessions: 'stateless',
      responses: 'application/json',
      resourceMetadata: this.urls.metadata(request),
      tenantId: caller.tenantId,
    };
  }
}

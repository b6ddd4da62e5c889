import { ApiProperty } from '@nestjs/swagger';

/** What an authenticated GET /mcp answers: how to talk to the endpoint (it keeps no sessions and opens no stream). */
export class McpEndpointResponse {
  @ApiProperty({ example: 'http://127.0.0.1:3000/mcp' })
  endpoint!: string;

  @ApiProperty({ example: 'streamable-http' })
  transport!: string;

  @ApiProperty({ example: '2025-11-25', description: 'the latest MCP protocol version the gateway speaks' })
  protocolVersion!: string;

  @ApiProperty({ type: [String] })
  supportedProtocolVersions!: string[];

  @ApiProperty({ example: 'stateless', description: 'no Mcp-Session-Id is issued; every POST stands alone' })
  sessions!: string;

  @ApiProperty({ example: 'application/json', description: 'POST answers are JSON, never an event stream' })
  responses!: string;

  @ApiProperty({ example: 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp' })
  resourceMetadata!: string;

  @ApiProperty({ example: 'default' })
  tenantId!: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** RFC 9728 §2 OAuth 2.0 Protected Resource Metadata of the MCP endpoint. */
export class ProtectedResourceMetadataResponse {
  @ApiProperty({ description: 'absolute URL of the MCP endpoint (the protected resource)', example: 'http://127.0.0.1:3000/mcp' })
  resource!: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'the issuer of accepted tokens (JWT_ISSUER); present when tokens are verified with its JWKS (JWT_JWKS_URI) and it is an http(s) URL',
  })
  authorization_servers?: string[];

  @ApiProperty({ type: [String], example: ['header'], description: 'tokens are accepted only in the Authorization header' })
  bearer_methods_supported!: string[];

  @ApiProperty({ example: 'Legal platform MCP gateway' })
  resource_name!: string;

  @ApiPropertyOptional({ description: 'human documentation of the endpoint' })
  resource_documentation?: string;
}

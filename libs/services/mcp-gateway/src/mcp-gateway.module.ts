import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { McpEndpointModule } from './endpoint/mcp-endpoint.module';
import { mcpGatewayConfig } from './mcp-gateway.config';

/** Wires mcp-gateway: each folder owns its module. */
@Module({ imports: [ConfigModule.forRoot(mcpGatewayConfig), McpEndpointModule] })
export class McpGatewayModule {}

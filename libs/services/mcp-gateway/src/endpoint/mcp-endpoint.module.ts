import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { McpGatewayConfig, mcpGatewayConfig } from '../mcp-gateway.config';
import { ProtectedResourceController } from '../resource-metadata/protected-resource.controller';
import { ResourceMetadataModule } from '../resource-metadata/resource-metadata.module';
import { McpToolsModule } from '../tools/mcp-tools.module';
import { DnsRebindingMiddleware } from './dns-rebinding.middleware';
import { McpAccessGuard } from './mcp-access.guard';
import { McpController } from './mcp.controller';
import { McpProtocolServerFactory } from './mcp-protocol-server';
import { MCP_THROTTLER_OPTIONS, mcpThrottlerOptions, McpThrottlerGuard } from './mcp-throttler.guard';

/** `/mcp`: the controller, its guards, the per-request SDK server and the DNS-rebinding check. */
@Module({
  imports: [McpToolsModule, ResourceMetadataModule],
  controllers: [McpController],
  providers: [
    McpAccessGuard,
    McpProtocolServerFactory,
    {
      provide: MCP_THROTTLER_OPTIONS,
      inject: [mcpGatewayConfig.token],
      useFactory: (config: McpGatewayConfig) =>
        mcpThrottlerOptions({ callerLimit: config.MCP_CALLER_RATE_LIMIT, tenantLimit: config.MCP_TENANT_RATE_LIMIT, windowMs: config.MCP_RATE_WINDOW_MS }),
    },
    McpThrottlerGuard,
    DnsRebindingMiddleware,
  ],
})
export class McpEndpointModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Before any guard: a rebinding page is refused before its token (if any) is even looked at.
    consumer.apply(DnsRebindingMiddleware).forRoutes(McpController, ProtectedResourceController);
  }
}

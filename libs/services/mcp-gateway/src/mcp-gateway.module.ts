import { Module } from '@nestjs/common';

/** Wires mcp-gateway: each folder owns its module. */
@Module({ imports: [] })
export class McpGatewayModule {}

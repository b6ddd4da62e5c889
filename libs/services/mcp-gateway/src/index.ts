export * from './mcp-gateway.service-definition';

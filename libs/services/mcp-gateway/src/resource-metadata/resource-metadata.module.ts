import { Module } from '@nestjs/common';
import { McpResourceAudience } from './mcp-resource-audience';
import { McpResourceChallenge } from './mcp-resource-challenge';
import { McpResourceUrls } from './mcp-resource-urls';
import { ProtectedResourceController } from './protected-resource.controller';

/** The RFC 9728 metadata document, the 401 challenge that names it, and the resource as an accepted audience. */
@Module({
  controllers: [ProtectedResourceController],
  providers: [McpResourceUrls, McpResourceChallenge, McpResourceAudience],
  exports: [McpResourceUrls, McpResourceChallenge, McpResourceAudience],
})
export class ResourceMetadataModule {}

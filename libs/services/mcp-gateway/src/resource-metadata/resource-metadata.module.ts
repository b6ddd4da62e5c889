import { Module } from '@nestjs/common';
import { McpResourceChallenge } from './mcp-resource-challenge';
import { McpResourceUrls } from './mcp-resource-urls';
import { ProtectedResourceController } from './protected-resource.controller';

/** The RFC 9728 metadata document and the 401 challenge that names it. */
@Module({
  controllers: [ProtectedResourceController],
  providers: [McpResourceUrls, McpResourceChallenge],
  exports: [McpResourceUrls, McpResourceChallenge],
})
export class ResourceMetadataModule {}

import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { mcpGatewayService } from '@lp/service/mcp-gateway';

void runService(mcpGatewayService);

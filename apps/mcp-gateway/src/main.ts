// First: the tracing SDK must be in place before the modules it instruments load.
import '@lp/platform/observability/tracing';
import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { mcpGatewayService } from '@lp/service/mcp-gateway';

void runService(mcpGatewayService);

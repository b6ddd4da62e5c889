import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { TrustedCaller } from '@lp/contracts';
import { McpToolCalls } from '../tools/mcp-tool-calls';
import { McpToolRegistry } from '../tools/mcp-tool-registry';

export const MCP_SERVER_INFO = { name: 'legal-platform-mcp-gateway', version: '1.0.0' };

const INSTRUCTIONS =
  'Tools over the legal platform, acting as you: each call is authorized as you by the service that owns the data. tools/list shows only the tools you may use. Case tools take PascalCase arguments (CaseTitle, CaseType, ClaimAmount, DefendantName, Currency; CaseId).';

/**
 * The SDK's low-level `Server` for one HTTP request, bound to that request's caller.
 *
 * Why not `McpServer`: in SDK 1.32.2 it validates arguments before the tool's callback and turns a
 * failure into a text-only error result, so per-argument structured errors and the audit of invalid
 * calls would be impossible; and why per request: a `Server` (its `Protocol`) holds one transport,
 * and the stateless transport serves exactly one request, so a shared server would answer one
 * client's request on another's transport. A `Server` with two handlers is cheap to make (the tool
 * listings are built once, in the registry).
 */
@Injectable()
export class McpProtocolServerFactory {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly calls: McpToolCalls,
  ) {}

  create(caller: TrustedCaller): Server {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.registry.listFor(caller) }));
    server.setRequestHandler(CallToolRequestSchema, (request) => this.calls.call(caller, request.params.name, request.params.arguments));
    return server;
  }
}

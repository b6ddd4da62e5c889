import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AuthzRpc, type DecisionReply, permissionCode, type TrustedCaller } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { RpcClient } from '@lp/platform/messaging';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { AnyMcpTool, ToolPermission } from './mcp-tool';

export const MCP_TOOL_DECLARATIONS = Symbol('MCP_TOOL_DECLARATIONS');

/** The tools/list entry of a declaration: JSON Schema draft-07 (what the SDK's own conversion and its client's validator use). */
export function toolListing(tool: AnyMcpTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
    outputSchema: z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output' }) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** The distinct permissions a set of tools needs, each once, by permission code. */
export function distinctPermissions(tools: readonly AnyMcpTool[]): Map<string, ToolPermission> {
  const byCode = new Map<string, ToolPermission>();
  for (const tool of tools) for (const p of tool.requires) byCode.set(permissionCode(p.module, p.resource, p.action), p);
  return byCode;
}

/** The tools whose every required permission is in `permitted` (tools requiring none always). */
export function toolsPermitted(tools: readonly AnyMcpTool[], permitted: ReadonlySet<string>): AnyMcpTool[] {
  return tools.filter((tool) => tool.requires.every((p) => permitted.has(permissionCode(p.module, p.resource, p.action))));
}

/**
 * The tool catalog: finds a tool by name and answers tools/list for one caller. Listings (JSON
 * Schemas) are built once at start; what a caller sees is decided by one `authz.decide-batch` as
 * the caller, one question per distinct permission the tools need (no instance), so the tenant's
 * features count as in every decision. A denied question hides its tools; no answer hides every
 * permission-gated tool (fail closed) and is logged.
 */
@Injectable()
export class McpToolRegistry {
  private readonly logger = new Logger(McpToolRegistry.name);
  private readonly byName: ReadonlyMap<string, AnyMcpTool>;
  private readonly listings: ReadonlyMap<string, Tool>;
  private readonly permissions: ReadonlyMap<string, ToolPermission>;

  constructor(
    @Inject(MCP_TOOL_DECLARATIONS) private readonly tools: readonly AnyMcpTool[],
    private readonly rpc: RpcClient,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {
    const names = new Set<string>();
    for (const tool of tools) {
      if (names.has(tool.name)) throw new Error(`MCP tool "${tool.name}" is declared twice`);
      names.add(tool.name);
    }
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.listings = new Map(tools.map((t) => [t.name, toolListing(t)]));
    this.permissions = distinctPermissions(tools);
  }

  find(name: string): AnyMcpTool | undefined {
    return this.byName.get(name);
  }

  /** The listings of the tools `caller` may use, in catalog order. */
  async listFor(caller: TrustedCaller): Promise<Tool[]> {
    const permitted = await this.permittedCodes(caller);
    return toolsPermitted(this.tools, permitted).map((tool) => this.listings.get(tool.name) as Tool);
  }

  private async permittedCodes(caller: TrustedCaller): Promise<Set<string>> {
    const entries = [...this.permissions.entries()];
    if (entries.length === 0) return new Set();
    let replies: DecisionReply[];
    try {
      replies = await this.rpc.call(
        AuthzRpc.decideBatch,
        { caller, payload: { requests: entries.map(([, p]) => ({ resource: { module: p.module, resourceType: p.resource }, action: p.action })) } },
        { timeoutMs: this.platform.AUTHZ_DECISION_TIMEOUT_MS },
      );
    } catch (error) {
      this.logger.warn(`tools/list without permission-gated tools: the batch decision failed (${error instanceof Error ? error.message : String(error)})`);
      return new Set();
    }
    const permitted = new Set<string>();
    entries.forEach(([code], i) => {
      const reply = replies[i];
      if (reply && !reply.failure && reply.outcome === 'Permit' && reply.permitted === true) permitted.add(code);
    });
    return permitted;
  }
}

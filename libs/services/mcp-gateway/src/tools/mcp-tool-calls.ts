import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AnyRpcContract, PayloadOf, ProblemCodes, ReplyOf, TrustedCaller } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { problem, toProblem } from '@lp/platform/http';
import { RpcClient } from '@lp/platform/messaging';
import { CorrelationContext } from '@lp/platform/observability';
import { ToolCallAudit } from '../audit/tool-call-audit';
import { McpGatewayConfig, mcpGatewayConfig } from '../mcp-gateway.config';
import { ToolContext } from './mcp-tool';
import { McpToolRegistry } from './mcp-tool-registry';
import { errorResult, invalidArgumentsProblem, outcomeOfProblem, problemForClient, successResult, ToolOutcome } from './tool-outcome';

export const UNKNOWN_TOOL_CODE = 'Mcp.UnknownTool';

/**
 * One tools/call: the gateway validates the arguments itself (an invalid argument is a tool result
 * with `isError` and per-argument messages, never a JSON-RPC error, and nothing is called), runs the
 * tool's RPC as the caller (the owning service's guard decides again; the gateway never calls as
 * itself), turns a downstream problem into an `isError` result carrying its code, and audits the
 * call whatever its outcome.
 */
@Injectable()
export class McpToolCalls {
  private readonly logger = new Logger(McpToolCalls.name);

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly rpc: RpcClient,
    private readonly audit: ToolCallAudit,
    @InjectConfig(mcpGatewayConfig) private readonly config: McpGatewayConfig,
  ) {}

  async call(caller: TrustedCaller, name: string, args: unknown): Promise<CallToolResult> {
    const started = performance.now();
    const correlationId = CorrelationContext.current();
    const tool = this.registry.find(name);
    const finish = (outcome: ToolOutcome, errorCode?: string): void =>
      this.audit.record({ caller, tool: name, toolKnown: tool !== undefined, outcome, errorCode, latencyMs: performance.now() - started, correlationId });

    if (!tool) {
      finish('invalid', UNKNOWN_TOOL_CODE);
      // MCP: an unknown tool is a protocol error (-32602), unlike a failing one.
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}`);
    }
    // Everything from here on runs inside the try: an error nobody expected becomes an `isError`
    // result with no internals, where the SDK would send its message to the client as -32603.
    try {
      const parsed = tool.input.safeParse(args ?? {});
      if (!parsed.success) {
        const invalid = invalidArgumentsProblem(parsed.error, tool.argumentFields);
        finish('invalid', invalid.code);
        return errorResult({ ...invalid, correlationId });
      }
      const raw = await tool.run(parsed.data, this.contextFor(caller));
      // Parsing strips anything the service answers beyond the declared output, so a field added
      // downstream reaches MCP clients only once it is declared (and the client's validation holds).
      const output = tool.output.safeParse(raw);
      if (!output.success) {
        this.logger.error(
          {
            tool: name,
            correlationId,
            issues: output.error.issues.map((i: { path: PropertyKey[]; message: string }) => `${i.path.map(String).join('.')}: ${i.message}`),
          },
          'tool answer does not match its output schema',
        );
        const failure = problem(500, ProblemCodes.internal, 'The tool produced an answer that does not match its output schema.', { correlationId });
        finish('failed', failure.code);
        return errorResult(failure);
      }
      finish('succeeded');
      return successResult(output.data as Record<string, unknown>);
    } catch (error) {
      const downstream = problemForClient(toProblem(error, correlationId), tool.argumentFields);
      if (downstream.status >= 500)
        this.logger.warn({ tool: name, correlationId, code: downstream.code, err: error instanceof Error ? error.message : String(error) }, 'tool call failed');
      finish(outcomeOfProblem(downstream), downstream.code);
      return errorResult({ ...downstream, correlationId: downstream.correlationId ?? correlationId });
    }
  }

  private contextFor(caller: TrustedCaller): ToolContext {
    const timeoutMs = this.config.MCP_TOOL_TIMEOUT_MS;
    return {
      caller,
      call: <C extends AnyRpcContract>(contract: C, payload: PayloadOf<C>): Promise<ReplyOf<C>> =>
        this.rpc.call(contract, { caller, payload } as Parameters<RpcClient['call']>[1], { timeoutMs }) as Promise<ReplyOf<C>>,
    };
  }
}

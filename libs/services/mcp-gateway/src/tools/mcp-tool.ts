import { z } from 'zod';
import { AnyRpcContract, AuthorizationAction, permissionCode, PayloadOf, ReplyOf, TrustedCaller } from '@lp/contracts';

/** The permission of the underlying route a tool needs (no instance: visibility is per module/resource/action). */
export interface ToolPermission {
  module: string;
  resource: string;
  action: AuthorizationAction;
}

/**
 * MCP tool annotations (spec 2025-06-18+ `ToolAnnotations`), every hint stated, none left to the
 * protocol's defaults (which assume destructive and open-world).
 */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Whether the tool reaches outside the platform (none does: every tool is an RPC of the fleet). */
  openWorldHint: boolean;
}

/** What a tool's `run` may do: call the owning service over RPC, always as the MCP client's caller. */
export interface ToolContext {
  readonly caller: TrustedCaller;
  call<C extends AnyRpcContract>(contract: C, payload: PayloadOf<C>): Promise<ReplyOf<C>>;
}

// Tool inputs and outputs are JSON objects (MCP requires `type: "object"` for both schemas).
type ObjectSchema = z.ZodObject;

/**
 * One MCP tool, declared in one place: what clients see (name, description, schemas, annotations),
 * when they see it (`requires`), and the RPC it makes. Adding a tool is one `defineTool` in `tools/` and one line in `MCP_TOOLS`.
 */
export interface McpToolDeclaration<I extends ObjectSchema = ObjectSchema, O extends ObjectSchema = ObjectSchema> {
  /** snake_case, unique: what clients call. */
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /**
   * The permissions that make the tool visible in tools/list (all of them must be permitted). Empty:
   * always listed (a tool about the caller itself). Listing is a convenience; the call is decided
   * again by the owning service's guard as the caller either way.
   */
  requires: readonly ToolPermission[];
  /**
   * Argument name → the field of the downstream payload it maps to, so the service's per-field
   * errors (and messages of shared schemas, which name payload fields) come back under the argument.
   */
  argumentFields?: Readonly<Record<string, string>>;
  run(input: z.output<I>, context: ToolContext): Promise<z.input<O>>;
}

const TOOL_NAME = /^[a-z][a-z0-9_]{2,63}$/;

export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(declaration: McpToolDeclaration<I, O>): McpToolDeclaration<I, O> {
  // Fail at load time on a malformed declaration, not at the first tools/list.
  if (!TOOL_NAME.test(declaration.name)) throw new Error(`MCP tool name "${declaration.name}" must be snake_case (${TOOL_NAME})`);
  for (const p of declaration.requires) permissionCode(p.module, p.resource, p.action);
  return declaration;
}

/** A declaration with its schemas erased, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMcpTool = McpToolDeclaration<any, any>;

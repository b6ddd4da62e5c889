import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { FieldProblems, ProblemCodes, type ProblemDetails } from '@lp/contracts';
import { problem } from '@lp/platform/http';

/** How a tools/call ended, as the audit and the metrics record it. */
export const TOOL_OUTCOMES = ['succeeded', 'invalid', 'denied', 'not_found', 'failed', 'rate_limited'] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

/** The outcome of a call that ended in this problem (the gateway's own or the owning service's). */
export function outcomeOfProblem(p: Pick<ProblemDetails, 'status' | 'code'>): ToolOutcome {
  if (p.code === ProblemCodes.authorizationDenied) return 'denied';
  if (p.code === ProblemCodes.notFound || p.status === 404) return 'not_found';
  if (p.code === ProblemCodes.validationFailed || p.status === 400 || p.status === 422) return 'invalid';
  if (p.status === 429) return 'rate_limited';
  // Authorization.Unavailable, timeouts, transport failures, 5xx: the call failed, nobody refused it.
  if (p.status === 403) return 'denied';
  return 'failed';
}

/** Payload field (dotted path) → argument name: the reverse of a declaration's `argumentFields`. */
function argumentOf(argumentFields: Readonly<Record<string, string>>): Map<string, string> {
  return new Map(Object.entries(argumentFields).map(([argument, field]) => [field, argument]));
}

/** A shared schema's message names the payload field (`claimAmount must be …`): name the argument instead. */
function renameLeadingField(message: string, field: string | undefined, argument: string): string {
  if (!field) return message;
  const leaf = field.split('.').pop() ?? field;
  return message.startsWith(`${leaf} `) ? `${argument}${message.slice(leaf.length)}` : message;
}

/** The 400 `Validation.Failed` for arguments the tool's input schema refuses, per argument (`(root)` for the whole object). */
export function invalidArgumentsProblem(error: z.ZodError, argumentFields: Readonly<Record<string, string>> = {}): ProblemDetails {
  const errors = new FieldProblems();
  for (const issue of error.issues) {
    // An unknown argument is reported under its own name, not the object's.
    const keys =
      issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path.map(String), k].join('.')) : [issue.path.map(String).join('.') || '(root)'];
    for (const key of keys) {
      const field = Object.hasOwn(argumentFields, key) ? argumentFields[key] : undefined;
      errors.add(key, issue.code === 'unrecognized_keys' ? 'is not an argument of this tool' : renameLeadingField(issue.message, field, key));
    }
  }
  return problem(400, ProblemCodes.validationFailed, `The arguments are not valid: ${errors.fields().join(', ')}.`, { errors: errors.toRecord() });
}

/** The owning service's per-field errors keyed by the tool's argument names where the tool maps them. */
export function problemForClient(p: ProblemDetails, argumentFields: Readonly<Record<string, string>> = {}): ProblemDetails {
  if (!p.errors) return p;
  const arguments_ = argumentOf(argumentFields);
  const errors = new FieldProblems();
  for (const [field, messages] of Object.entries(p.errors)) {
    const argument = arguments_.get(field) ?? field;
    errors.add(argument, ...messages.map((m) => renameLeadingField(m, field, argument)));
  }
  return { ...p, errors: errors.toRecord() };
}

/**
 * Where an error result carries its problem for programs: the result's `_meta`, under a key of
 * the platform's own (MCP reserves only `modelcontextprotocol`/`mcp` prefixes). Not in
 * `structuredContent`, which MCP ties to the tool's output schema: SDK clients validate it
 * whenever it is present, error or not, and would answer -32602 in place of the tool's message.
 */
export const TOOL_PROBLEM_META_KEY = 'legal-platform/problem';

/** The problem an error result carries (`TOOL_PROBLEM_META_KEY`), as any client reads it back. */
export function problemOfResult(result: Pick<CallToolResult, '_meta'>): ProblemDetails | undefined {
  return result._meta?.[TOOL_PROBLEM_META_KEY] as ProblemDetails | undefined;
}

/**
 * A failed call as a tool result (not a JSON-RPC error), so the model sees what went wrong and can
 * correct itself (MCP: tool execution errors are results with `isError`). The text is the message
 * every client shows: the stable code, status, detail, each argument's messages and the correlation
 * id. The problem object itself rides in `_meta` for programs that key on the code; there is no
 * `structuredContent` (see `TOOL_PROBLEM_META_KEY`).
 */
export function errorResult(p: ProblemDetails): CallToolResult {
  const fieldLines = Object.entries(p.errors ?? {}).map(([field, messages]) => `- ${field}: ${messages.join('; ')}`);
  const lines = [`${p.code} (${p.status} ${p.title}): ${p.detail ?? p.title}`, ...fieldLines];
  if (p.correlationId) lines.push(`Correlation id: ${p.correlationId}`);
  const carried: ProblemDetails = {
    type: p.type,
    title: p.title,
    status: p.status,
    code: p.code,
    ...(p.detail ? { detail: p.detail } : {}),
    ...(p.errors ? { errors: p.errors } : {}),
    ...(p.correlationId ? { correlationId: p.correlationId } : {}),
  };
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true, _meta: { [TOOL_PROBLEM_META_KEY]: carried } };
}

/** A successful call: the structured content, and its JSON as text for clients without structured output (MCP recommends both). */
export function successResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

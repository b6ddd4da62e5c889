import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ProblemDetails } from '@lp/contracts';
import { createHttpServer, type PlatformHttpServer, type ServiceApp } from '@lp/platform/runtime';
import { problemOfResult } from '@lp/service/mcp-gateway';

/** An app behind the HTTP server it runs with in production, listening on an ephemeral port of 127.0.0.1. */
export async function listen(app: ServiceApp): Promise<{ server: PlatformHttpServer; baseUrl: string }> {
  const server = createHttpServer(app.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function close(server: PlatformHttpServer | undefined): Promise<void> {
  if (server) await server.drain(1000);
}

/**
 * The SDK's own client over its Streamable HTTP transport, as an AI client connects: the bearer token
 * and the tenant header on every request (through `fetch` when given, e.g. to watch the answers'
 * headers). Resolves once `initialize` has been answered and, unless
 * `listTools: false`, tools/list too: as an AI client does before calling a tool, and what makes the
 * SDK client check every later result against the tool's output schema (it validates only the tools
 * it has listed).
 */
export async function connectMcp(
  baseUrl: string,
  headers: Record<string, string>,
  options: { listTools?: boolean; fetch?: typeof fetch } = {},
): Promise<Client> {
  const client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers }, fetch: options.fetch }));
  if (options.listTools ?? true) {
    try {
      await client.listTools();
    } catch (error) {
      await client.close();
      throw error;
    }
  }
  return client;
}

export function mcpHeaders(token: string, tenantId: string): Record<string, string> {
  return { Authorization: `Bearer ${token}`, 'X-Tenant-Id': tenantId };
}

/** The structured content of a tool result, typed for assertions. */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  return (result as CallToolResult).structuredContent as T;
}

/** A tool's error result as a client that only reads text sees it, with the problem programs key on. */
export interface ToolError extends ProblemDetails {
  /** The result's text content, joined. */
  text: string;
}

/**
 * Asserts that `result` is an error every MCP client can read, whatever it validates: `isError`, no
 * `structuredContent` (SDK clients check it against the tool's output schema even on an error),
 * and a text naming the problem's code, detail and correlation id. Returns the problem from `_meta`.
 */
export function toolError(result: unknown): ToolError {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const text = r.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  const problem = problemOfResult(r);
  expect(problem).toMatchObject({ code: expect.any(String), status: expect.any(Number), title: expect.any(String), correlationId: expect.any(String) });
  const p = problem as ProblemDetails & { correlationId: string };
  for (const part of [p.code, p.title, p.detail ?? p.title, p.correlationId]) expect(text).toContain(part);
  for (const field of Object.keys(p.errors ?? {})) expect(text).toContain(field);
  return { ...p, text };
}

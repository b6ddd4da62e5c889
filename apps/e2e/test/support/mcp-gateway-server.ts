import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHttpServer, type PlatformHttpServer, type ServiceApp } from '@lp/platform/runtime';

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
 * and the tenant header on every request. Resolves once `initialize` has been answered.
 */
export async function connectMcp(baseUrl: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } }));
  return client;
}

export function mcpHeaders(token: string, tenantId: string): Record<string, string> {
  return { Authorization: `Bearer ${token}`, 'X-Tenant-Id': tenantId };
}

/** The structured content of a tool result, typed for assertions. */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  return (result as CallToolResult).structuredContent as T;
}

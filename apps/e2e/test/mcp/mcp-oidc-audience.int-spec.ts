import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { SEEDED_TENANT } from '@lp/contracts';
import { AuthenticationFailure } from '@lp/platform/auth';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { close, listen, mcpHeaders, structured } from '../support/mcp-gateway-server';
import { MachineClient, PLATFORM_AUDIENCE, TestIssuer } from '../support/oidc-issuer';

const AGENT: MachineClient = { clientId: 'mcp-agent', clientSecret: 'mcp-agent-secret-0123456789abcdef' };
const PLATFORM_RESOURCE = 'urn:legal-platform:api';

/**
 * Issue 35: in JWKS mode, a client that follows the MCP authorization spec reads the RFC 9728
 * metadata, asks the issuer it names for a token with `resource=<the metadata's resource>` (RFC
 * 8707), and presents a token whose `aud` is the /mcp URL. A real issuer (oidc-provider) and the
 * SDK's own client and OAuth provider (client credentials) do exactly that here. Such a token is
 * accepted at /mcp and nowhere else.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: tokens for the MCP resource from a real OIDC issuer (RFC 8707, RFC 9728)', () => {
  let issuer: TestIssuer;
  let platform: OperationsTestPlatform;
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';
  const mcpResource = () => `${baseUrl}/mcp`;
  /** The same endpoint named by another of its allowed hosts: a different resource, hence audience. */
  const otherHostResource = () => mcpResource().replace('127.0.0.1', 'localhost');
  const bearer = (token: string) => mcpHeaders(token, SEEDED_TENANT);
  const initialize = (token: string) =>
    fetch(mcpResource(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...bearer(token) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });

  beforeAll(async () => {
    issuer = await TestIssuer.listen();
    // Tokens are verified with the issuer's keys only: the platform's own HS256 tokens are refused.
    platform = new OperationsTestPlatform('mcp-oidc', { env: { JWT_JWKS_URI: issuer.jwksUri, JWT_ISSUER: issuer.url } });
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
    await issuer.serve({ machineClients: [AGENT], resources: [mcpResource(), otherHostResource()] });
  }, 120_000);
  afterAll(async () => {
    await close(server);
    await platform?.stop();
    await issuer?.close();
  });
  afterEach(() => expect(issuer.serverErrors).toEqual([]));

  it('names the issuer (JWT_ISSUER) as the authorization server of the /mcp resource', async () => {
    const res = await fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(await res.json()).toEqual({
      resource: mcpResource(),
      authorization_servers: [issuer.url],
      bearer_methods_supported: ['header'],
      resource_name: 'Legal platform MCP gateway',
    });
  });

  it('the SDK client discovers the issuer from the 401, gets a token for the /mcp URL and is admitted', async () => {
    const provider = new ClientCredentialsProvider({ ...AGENT, expectedIssuer: issuer.url });
    const client = new Client({ name: 'e2e-oauth-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(mcpResource()), {
      authProvider: provider,
      requestInit: { headers: { 'X-Tenant-Id': SEEDED_TENANT } },
    });
    try {
      await client.connect(transport);
      const token = provider.tokens()?.access_token ?? '';
      // RFC 8707: the audience is the resource the metadata names, not the platform's.
      expect(jwt.decode(token)).toMatchObject({
        iss: issuer.url,
        aud: mcpResource(),
        sub: AGENT.clientId,
        client_id: AGENT.clientId,
        tenant_id: SEEDED_TENANT,
      });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_my_permissions', 'check_authorization']);
      const mine = await client.callTool({ name: 'get_my_permissions', arguments: {} });
      expect(mine.isError).toBeFalsy();
      expect(structured(mine)).toMatchObject({ tenantId: SEEDED_TENANT, subject: AGENT.clientId });
    } finally {
      await client.close();
    }
  });

  it('a token for the /mcp URL is refused on every other route: audience mismatch', async () => {
    const token = await issuer.clientCredentialsToken(AGENT, mcpResource());
    expect((await initialize(token)).status).toBe(200);
    const elsewhere = [
      ['case-management', '/api/cases'],
      ['policy-management', '/api/authorization/me/permissions'],
      ['workflow-engine', '/api/workflow/tasks/todo'],
    ] as const;
    for (const [service, path] of elsewhere) {
      const http = service === 'policy-management' ? platform.policy.http : platform.service(service).http;
      const res = await request(http as Parameters<typeof request>[0])
        .get(path)
        .set('Authorization', `Bearer ${token}`);
      expect(`${service} ${path}: ${res.status} ${res.body.detail}`).toBe(`${service} ${path}: 401 ${AuthenticationFailure.wrongAudience}`);
    }
  });

  it("a token for the platform's API is accepted at /mcp as on every route", async () => {
    const token = await issuer.clientCredentialsToken(AGENT, PLATFORM_RESOURCE);
    expect(jwt.decode(token)).toMatchObject({ aud: PLATFORM_AUDIENCE });
    expect((await initialize(token)).status).toBe(200);
    await request(platform.service('case-management').http as Parameters<typeof request>[0])
      .get('/api/cases')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Tenant-Id', SEEDED_TENANT)
      .expect((res) => expect(res.status).not.toBe(401));
  });

  it('a token for the same endpoint under another host name is refused at /mcp, with the challenge', async () => {
    const token = await issuer.clientCredentialsToken(AGENT, otherHostResource());
    const res = await initialize(token);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe(AuthenticationFailure.wrongAudience);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`);
  });
});

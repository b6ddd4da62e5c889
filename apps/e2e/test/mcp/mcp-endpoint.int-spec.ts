import { request as httpRequest } from 'node:http';
import jwt from 'jsonwebtoken';
import { AUTHORIZATION_ACTIONS, SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { signAccessToken } from '@lp/platform/auth';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { ToolCallAudit } from '@lp/service/mcp-gateway';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { OperationsTestPlatform } from '../support/operations-platform';
import { close, connectMcp, listen, mcpHeaders, structured, toolError } from '../support/mcp-gateway-server';

const ALWAYS_LISTED = ['get_my_permissions', 'check_authorization'];
const ALL_TOOLS = [
  'create_litigation_case',
  'get_case_by_id',
  'get_my_permissions',
  'check_authorization',
  'list_jobs',
  'run_job',
  'list_my_workflow_tasks',
  'approve_workflow_task',
  'reject_workflow_task',
  'start_workflow',
  'list_webhook_subscriptions',
];
const OTHER_TENANT = 'mcp-acme';

/**
 * The MCP gateway behind a listening HTTP server, driven by the SDK's own Client over
 * StreamableHTTPClientTransport (and by fetch where the exact HTTP answer is the point), with
 * policy-management, authz-decision and operations behind it on PostgreSQL, RabbitMQ and Redis.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: /mcp authentication, tenant gate, tools/list and the platform tools', () => {
  const platform = new OperationsTestPlatform('mcp-endpoint');
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';
  const mcpUrl = () => `${baseUrl}/mcp`;
  const metadataUrl = () => `${baseUrl}/.well-known/oauth-protected-resource/mcp`;
  const admin = () => mcpHeaders(platform.token(), SEEDED_TENANT);

  beforeAll(async () => {
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
    // A plain user holding only cases.case.view; a second tenant with its own administrator.
    await platform.grantRole(SEEDED_TENANT, 'viewer', 'case-viewer', ['cases.case.view']);
    await platform.seedTenantAdmin(OTHER_TENANT, 'alice');
  }, 120_000);
  afterAll(async () => {
    await close(server);
    await platform.stop();
  });

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  describe('401: the bearer challenge names the RFC 9728 metadata', () => {
    const foreignKey = () =>
      signAccessToken(
        { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT },
        { secret: 'x'.repeat(43), issuer: platform.runtime.jwt.issuer, audience: platform.runtime.jwt.audience },
      );
    /** The platform's own token, re-signed with the platform's key after moving its lifetime into the past. */
    const expired = () => {
      const claims = jwt.decode(platform.token()) as Record<string, number>;
      const now = Math.floor(Date.now() / 1000);
      return jwt.sign({ ...claims, iat: now - 600, exp: now - 300 }, platform.runtime.jwt.secret as string, { algorithm: 'HS256' });
    };

    it('no token: Bearer resource_metadata="<absolute metadata URL>", problem+json', async () => {
      const res = await post({ 'X-Tenant-Id': SEEDED_TENANT });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe('Authentication.Required');
    });

    it.each([
      ['malformed', () => 'not-a-jwt'],
      ['signed with another key', () => foreignKey()],
      ['expired', () => expired()],
    ])('%s token: the challenge adds error="invalid_token"', async (_label, token) => {
      for (const method of ['POST', 'GET', 'HEAD']) {
        const res =
          method === 'POST'
            ? await post({ Authorization: `Bearer ${token()}`, 'X-Tenant-Id': SEEDED_TENANT })
            : await fetch(mcpUrl(), { method, headers: { Authorization: `Bearer ${token()}`, 'X-Tenant-Id': SEEDED_TENANT } });
        expect(`${method} ${res.status}`).toBe(`${method} 401`);
        expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl()}", error="invalid_token"`);
      }
    });

    it('the SDK client fails to connect without a token, with the 401', async () => {
      await expect(connectMcp(baseUrl, { 'X-Tenant-Id': SEEDED_TENANT })).rejects.toThrow(/401|Unauthorized|Authentication/);
    });

    it('the named metadata document is public and names the resource', async () => {
      for (const url of [metadataUrl(), `${baseUrl}/.well-known/oauth-protected-resource`]) {
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ resource: mcpUrl(), bearer_methods_supported: ['header'], resource_name: 'Legal platform MCP gateway' });
      }
    });
  });

  describe('403: the tenant gate', () => {
    it('no X-Tenant-Id: Mcp.TenantRequired', async () => {
      const res = await post({ Authorization: `Bearer ${platform.token()}` });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe('Mcp.TenantRequired');
    });

    it("a tenant that is not the token's: Mcp.TenantMismatch", async () => {
      const res = await post(mcpHeaders(platform.token(), OTHER_TENANT));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('Mcp.TenantMismatch');
    });

    it('mcp.access off for the tenant: Mcp.FeatureDisabled on every method, and admitted again once back on', async () => {
      const alice = mcpHeaders(platform.token({ sub: 'alice', tenantId: OTHER_TENANT }), OTHER_TENANT);
      await platform.as('alice', OTHER_TENANT).put('/api/authorization/features/mcp.access').send({ enabled: false, scope: 'tenant' }).expect(200);
      try {
        // The gateway drops its cached answer when the feature event reaches it: milliseconds, polled with a bound.
        expect(
          (
            await eventually(
              () => post(alice),
              (res) => res.status === 403,
            )
          ).status,
        ).toBe(403);
        for (const res of [await post(alice), await fetch(mcpUrl(), { headers: alice }), await fetch(mcpUrl(), { method: 'HEAD', headers: alice })]) {
          expect(res.status).toBe(403);
        }
        expect(((await (await post(alice)).json()) as { code: string }).code).toBe('Mcp.FeatureDisabled');
        await expect(connectMcp(baseUrl, alice)).rejects.toThrow(/403/);
        // Another tenant is not affected.
        expect((await fetch(mcpUrl(), { headers: admin() })).status).toBe(200);
      } finally {
        await platform.as('alice', OTHER_TENANT).put('/api/authorization/features/mcp.access').send({ enabled: true, scope: 'tenant' }).expect(200);
      }
      expect(
        (
          await eventually(
            () => fetch(mcpUrl(), { method: 'HEAD', headers: alice }),
            (res) => res.status === 200,
          )
        ).status,
      ).toBe(200);
    });
  });

  describe('200 for an admitted caller', () => {
    it('HEAD answers 200 with no body', async () => {
      const res = await fetch(mcpUrl(), { method: 'HEAD', headers: admin() });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    });

    it('GET describes the endpoint; GET asking for an event stream is 405 (stateless JSON mode)', async () => {
      const res = await fetch(mcpUrl(), { headers: admin() });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        endpoint: mcpUrl(),
        transport: 'streamable-http',
        sessions: 'stateless',
        resourceMetadata: metadataUrl(),
        tenantId: SEEDED_TENANT,
      });
      const stream = await fetch(mcpUrl(), { headers: { ...admin(), Accept: 'text/event-stream' } });
      expect(stream.status).toBe(405);
      expect(stream.headers.get('allow')).toBe('GET, HEAD, POST');
    });

    it('initialize answers JSON without a session id', async () => {
      const res = await post(admin());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { serverInfo: { name: 'legal-platform-mcp-gateway' }, capabilities: { tools: {} } },
      });
    });
  });

  describe('DNS-rebinding protection', () => {
    it('refuses a foreign Host before authentication', async () => {
      // fetch sets Host from the URL; a raw request is needed to lie about it.
      const res = await rawRequest('POST', '/mcp', { Host: 'evil.example:80', Authorization: `Bearer ${platform.token()}`, 'X-Tenant-Id': SEEDED_TENANT });
      expect(res.status).toBe(403);
      expect(res.body).toMatch(/Invalid Host/);
    });

    it('refuses a foreign Origin, admits a local one', async () => {
      const foreign = await post({ ...admin(), Origin: 'http://evil.example' });
      expect(foreign.status).toBe(403);
      expect(((await foreign.json()) as { code: string }).code).toBe('Mcp.OriginNotAllowed');
      expect((await post({ ...admin(), Origin: baseUrl })).status).toBe(200);
    });
  });

  describe('tools/list shows what the caller may use', () => {
    it('the seeded admin sees every tool, each with schemas and annotations', async () => {
      const client = await connectMcp(baseUrl, admin());
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS);
        for (const tool of tools) {
          expect(tool.inputSchema.type).toBe('object');
          expect(tool.outputSchema?.type).toBe('object');
          expect(tool.annotations).toMatchObject({
            readOnlyHint: expect.any(Boolean),
            destructiveHint: expect.any(Boolean),
            idempotentHint: expect.any(Boolean),
          });
        }
        const create = tools.find((t) => t.name === 'create_litigation_case');
        expect(create?.inputSchema.properties?.['ClaimAmount']).toMatchObject({ type: 'number', exclusiveMinimum: 0 });
      } finally {
        await client.close();
      }
    });

    it('a user with only cases.case.view sees the case read tool and the always-listed ones', async () => {
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'viewer' }), SEEDED_TENANT));
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get_case_by_id', ...ALWAYS_LISTED]);
      } finally {
        await client.close();
      }
    });

    // Issue 31: the job tools are the platform's. alice's role holds every catalog code, the
    // platform-level ones included: the decision denies them outside the platform tenant anyway.
    it('a tenant administrator of another tenant sees every tool but list_jobs and run_job; the platform administrator sees both', async () => {
      const alice = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'alice', tenantId: OTHER_TENANT }), OTHER_TENANT));
      const operator = await connectMcp(baseUrl, admin());
      try {
        expect((await alice.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS.filter((name) => name !== 'list_jobs' && name !== 'run_job'));
        expect((await operator.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_jobs', 'run_job']));
      } finally {
        await alice.close();
        await operator.close();
      }
    });

    it('a user without any role sees only the always-listed tools', async () => {
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'nobody' }), SEEDED_TENANT));
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ALWAYS_LISTED);
      } finally {
        await client.close();
      }
    });
  });

  describe('the platform tools, as the caller', () => {
    it('get_my_permissions answers the caller its own permissions', async () => {
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'viewer' }), SEEDED_TENANT));
      try {
        const result = await client.callTool({ name: 'get_my_permissions', arguments: {} });
        expect(result.isError).toBeFalsy();
        expect(structured(result)).toMatchObject({ tenantId: SEEDED_TENANT, subject: 'viewer', codes: ['cases.case.view'] });
      } finally {
        await client.close();
      }
    });

    it('check_authorization explains a denial and a permit with the evaluators', async () => {
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'viewer' }), SEEDED_TENANT));
      try {
        const denied = structured<{ outcome: string; permitted: boolean; reasons: Array<{ evaluator: string }> }>(
          await client.callTool({ name: 'check_authorization', arguments: { Module: 'cases', Resource: 'case', Action: 'Create' } }),
        );
        expect(denied.permitted).toBe(false);
        expect(denied.outcome).not.toBe('Permit');
        const permitted = structured<{ outcome: string; reasons: Array<{ evaluator: string; verdict: string }> }>(
          await client.callTool({ name: 'check_authorization', arguments: { Module: 'cases', Resource: 'case', Action: 'View' } }),
        );
        expect(permitted.outcome).toBe('Permit');
        expect(permitted.reasons).toContainEqual(expect.objectContaining({ evaluator: 'RBAC', verdict: 'Allow' }));
      } finally {
        await client.close();
      }
    });

    it('an invalid argument is a tool result with isError and the field, not a protocol error', async () => {
      const client = await connectMcp(baseUrl, admin());
      try {
        const result = await client.callTool({ name: 'check_authorization', arguments: { Module: 'cases', Resource: 'case', Action: 'Fly' } });
        expect(result.isError).toBe(true);
        expect(toolError(result)).toMatchObject({ code: 'Validation.Failed', errors: { Action: [expect.any(String)] } });
        expect(AUTHORIZATION_ACTIONS).not.toContain('Fly');
        // An unknown tool, unlike a failing one, is a protocol error (MCP: -32602).
        await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      } finally {
        await client.close();
      }
    });

    it('list_jobs and run_job for the administrator', async () => {
      const client = await connectMcp(baseUrl, admin());
      try {
        const { jobs } = structured<{ jobs: Array<{ jobName: string }> }>(await client.callTool({ name: 'list_jobs', arguments: {} }));
        expect(jobs.map((j) => j.jobName)).toContain('mcp-gateway.tool-call-audit-retention');
        const run = await client.callTool({ name: 'run_job', arguments: { JobName: 'mcp-gateway.tool-call-audit-retention' } });
        expect(run.isError).toBeFalsy();
        expect(structured(run)).toMatchObject({
          status: 'succeeded',
          execution: { jobName: 'mcp-gateway.tool-call-audit-retention', trigger: 'manual', actor: SEEDED_ADMIN_SUBJECT },
        });
      } finally {
        await client.close();
      }
    });

    it('run_job by a user without operations.jobs.manage is denied by operations, as isError Authorization.Denied', async () => {
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'viewer' }), SEEDED_TENANT));
      try {
        const result = await client.callTool({ name: 'run_job', arguments: { JobName: 'mcp-gateway.tool-call-audit-retention' } });
        expect(result.isError).toBe(true);
        expect(toolError(result)).toMatchObject({ code: 'Authorization.Denied', status: 403 });
      } finally {
        await client.close();
      }
    });

    it('list_jobs and run_job called by a tenant administrator of another tenant are refused, and nothing runs', async () => {
      const executions = async () => (await platform.opsSql.query(`SELECT count(*)::int AS n FROM ops.job_execution`))[0].n as number;
      const before = await executions();
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'alice', tenantId: OTHER_TENANT }), OTHER_TENANT));
      try {
        for (const JobName of ['workflow-engine.node-timeouts', 'policy-management.change-log-retention']) {
          const run = await client.callTool({ name: 'run_job', arguments: { JobName } });
          expect(run.isError).toBe(true);
          expect(toolError(run)).toMatchObject({ code: 'Authorization.Denied', status: 403 });
        }
        const list = await client.callTool({ name: 'list_jobs', arguments: {} });
        expect(list.isError).toBe(true);
        expect(toolError(list)).toMatchObject({ code: 'Authorization.Denied', status: 403 });
      } finally {
        await client.close();
      }
      expect(await executions()).toBe(before);
    });

    it('audits every call with tenant, subject, tool, outcome and latency', async () => {
      const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'auditee' }), SEEDED_TENANT));
      try {
        await client.callTool({ name: 'get_my_permissions', arguments: {} });
        await client.callTool({ name: 'run_job', arguments: { JobName: 'mcp-gateway.tool-call-audit-retention' } });
        await client.callTool({ name: 'check_authorization', arguments: {} });
      } finally {
        await client.close();
      }
      await platform.service('mcp-gateway').app.get(ToolCallAudit).flush();
      const rows = await platform.opsSql.query(
        `SELECT tenant_id, subject, tool, outcome, error_code, latency_ms FROM mcp.tool_call_audit WHERE subject = 'auditee' ORDER BY created_at`,
      );
      // Written after each answer, not awaited by it: the order of the rows is not the order of the calls.
      expect(rows).toHaveLength(3);
      expect(rows).toEqual(
        expect.arrayContaining([
          { tenant_id: SEEDED_TENANT, subject: 'auditee', tool: 'get_my_permissions', outcome: 'succeeded', error_code: null, latency_ms: expect.any(Number) },
          {
            tenant_id: SEEDED_TENANT,
            subject: 'auditee',
            tool: 'run_job',
            outcome: 'denied',
            error_code: 'Authorization.Denied',
            latency_ms: expect.any(Number),
          },
          {
            tenant_id: SEEDED_TENANT,
            subject: 'auditee',
            tool: 'check_authorization',
            outcome: 'invalid',
            error_code: 'Validation.Failed',
            latency_ms: expect.any(Number),
          },
        ]),
      );
    });
  });

  /** A request with headers fetch will not send as given (Host). */
  function rawRequest(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    const { port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(port), method, path, headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(initialize));
    });
  }
});

import { SEEDED_TENANT } from '@lp/contracts';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { ToolCallAudit } from '@lp/service/mcp-gateway';
import { OperationsTestPlatform } from '../support/operations-platform';
import { close, connectMcp, listen, mcpHeaders } from '../support/mcp-gateway-server';

const CALLER_LIMIT = 4;
const TENANT_LIMIT = 6;
const OTHER_TENANT = 'mcp-rl-other';

/** What one answer to the SDK client said about the limits. */
interface LimitAnswer {
  method: string;
  status: number;
  /** `RateLimit` without its `t=` (seconds to reset vary): `"<policy>";r=<remaining>`. */
  rateLimit: string;
  policy: string | null;
}

/** A `fetch` for the SDK transport that notes each answer's status and RateLimit fields. */
function recordingFetch(answers: LimitAnswer[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    answers.push({
      method: init?.method ?? 'GET',
      status: res.status,
      rateLimit: (res.headers.get('ratelimit') ?? '').replace(/;t=\d+$/, ''),
      policy: res.headers.get('ratelimit-policy'),
    });
    return res;
  };
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: per-caller and per-tenant rate limits', () => {
  const platform = new OperationsTestPlatform('mcp-rate', {
    env: { MCP_CALLER_RATE_LIMIT: String(CALLER_LIMIT), MCP_TENANT_RATE_LIMIT: String(TENANT_LIMIT), MCP_RATE_WINDOW_MS: '60000' },
  });
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
  }, 120_000);
  afterAll(async () => {
    await close(server);
    await platform.stop();
  });

  const callTool = (sub: string, tenantId = SEEDED_TENANT) =>
    fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...mcpHeaders(platform.token({ sub, tenantId }), tenantId),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_permissions', arguments: {} } }),
    });

  it('advertises the per-caller limit down to r=0, then refuses with 429 naming it, audited rate_limited', async () => {
    const answers: LimitAnswer[] = [];
    const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'hasty' }), SEEDED_TENANT), { fetch: recordingFetch(answers), listTools: false });
    try {
      // initialize, notifications/initialized and the GET for a server stream (405) the SDK sends
      // on its own once initialized, without awaiting it: with the tools/call, the caller's four.
      await eventually(
        async () => answers.length,
        (n) => n === 3,
      );
      const permitted = await client.callTool({ name: 'get_my_permissions', arguments: {} });
      expect(permitted.isError).toBeFalsy();
      // The tenant policy had 5, 4, 3, 2 left: further from biting, so not the one named.
      const byRemaining = [...answers].sort((a, b) => b.rateLimit.localeCompare(a.rateLimit));
      expect(byRemaining.map((a) => a.rateLimit)).toEqual(['"mcpCaller";r=3', '"mcpCaller";r=2', '"mcpCaller";r=1', '"mcpCaller";r=0']);
      expect(answers.filter((a) => a.status === 429)).toEqual([]);
      expect(new Set(answers.map((a) => a.policy))).toEqual(new Set([`"mcpCaller";q=${CALLER_LIMIT};w=60`]));
      await expect(client.callTool({ name: 'get_my_permissions', arguments: {} })).rejects.toThrow(/429/);
    } finally {
      await client.close();
    }
    expect(answers.at(-1)).toEqual({ method: 'POST', status: 429, rateLimit: '"mcpCaller";r=0', policy: `"mcpCaller";q=${CALLER_LIMIT};w=60` });

    const refused = await callTool('hasty');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"mcpCaller";r=0;t=\d+$/);
    expect((await refused.json()) as { code: string; detail: string }).toMatchObject({ code: 'RateLimited', detail: expect.stringContaining('"mcpCaller"') });

    await platform.service('mcp-gateway').app.get(ToolCallAudit).flush();
    const rows = await platform.opsSql.query(
      `SELECT outcome, count(*)::int AS n FROM mcp.tool_call_audit WHERE subject = 'hasty' GROUP BY outcome ORDER BY outcome`,
    );
    expect(rows).toEqual([
      { outcome: 'rate_limited', n: 2 },
      { outcome: 'succeeded', n: 1 },
    ]);
  });

  it("advertises the tenant's limit once it is the closer one, down to r=0, then refuses with 429 naming it", async () => {
    // 'hasty' used CALLER_LIMIT of the tenant's TENANT_LIMIT (its refused requests counted for the caller only).
    const answers: LimitAnswer[] = [];
    const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'patient' }), SEEDED_TENANT), {
      fetch: recordingFetch(answers),
      listTools: false,
    });
    const tenantPolicy = `"mcpTenant";q=${TENANT_LIMIT};w=60`;
    try {
      // initialize and notifications/initialized: 1, then 0 left for the tenant (3 and 2 for patient).
      // The SDK's own GET after them is the tenant's seventh request.
      await eventually(
        async () => answers.length,
        (n) => n === 3,
      );
      expect(answers).toEqual([
        { method: 'POST', status: 200, rateLimit: '"mcpTenant";r=1', policy: tenantPolicy },
        { method: 'POST', status: 202, rateLimit: '"mcpTenant";r=0', policy: tenantPolicy },
        { method: 'GET', status: 429, rateLimit: '"mcpTenant";r=0', policy: tenantPolicy },
      ]);
      await expect(client.listTools()).rejects.toThrow(/429/);
    } finally {
      await client.close();
    }
    expect(answers.at(-1)).toEqual({ method: 'POST', status: 429, rateLimit: '"mcpTenant";r=0', policy: tenantPolicy });
  });

  it('another tenant is not limited by the first one, and the SDK client surfaces a 429 as an error', async () => {
    expect((await callTool('carol', OTHER_TENANT)).status).toBe(200);
    await expect(connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'patient' }), SEEDED_TENANT))).rejects.toThrow(/429/);
  });
});

import { SEEDED_TENANT } from '@lp/contracts';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers } from '@lp/platform/testing';
import { ToolCallAudit } from '@lp/service/mcp-gateway';
import { OperationsTestPlatform } from '../support/operations-platform';
import { close, connectMcp, listen, mcpHeaders } from '../support/mcp-gateway-server';

const CALLER_LIMIT = 4;
const TENANT_LIMIT = 6;
const OTHER_TENANT = 'mcp-rl-other';

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

  it('refuses a caller past its limit with 429 problem+json and Retry-After, audited rate_limited', async () => {
    for (let i = 0; i < CALLER_LIMIT; i++) expect((await callTool('hasty')).status).toBe(200);
    const refused = await callTool('hasty');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { code: string }).code).toBe('RateLimited');

    await platform.service('mcp-gateway').app.get(ToolCallAudit).flush();
    const rows = await platform.opsSql.query(
      `SELECT outcome, count(*)::int AS n FROM mcp.tool_call_audit WHERE subject = 'hasty' GROUP BY outcome ORDER BY outcome`,
    );
    expect(rows).toEqual([
      { outcome: 'rate_limited', n: 1 },
      { outcome: 'succeeded', n: CALLER_LIMIT },
    ]);
  });

  it("limits the tenant as a whole: another caller of the tenant is refused once the tenant's window is used up", async () => {
    // 'hasty' used CALLER_LIMIT of the tenant's TENANT_LIMIT (its refused request counted for the caller only).
    const left = TENANT_LIMIT - CALLER_LIMIT;
    for (let i = 0; i < left; i++) expect((await callTool('patient')).status).toBe(200);
    expect((await callTool('patient')).status).toBe(429);
  });

  it('another tenant is not limited by the first one, and the SDK client surfaces a 429 as an error', async () => {
    expect((await callTool('carol', OTHER_TENANT)).status).toBe(200);
    await expect(connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'patient' }), SEEDED_TENANT))).rejects.toThrow(/429/);
  });
});

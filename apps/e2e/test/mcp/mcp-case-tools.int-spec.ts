import { MATTER_NUMBER_PATTERN, SEEDED_TENANT } from '@lp/contracts';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers } from '@lp/platform/testing';
import { ToolCallAudit } from '@lp/service/mcp-gateway';
import { OperationsTestPlatform } from '../support/operations-platform';
import { close, connectMcp, listen, mcpHeaders, structured, toolError } from '../support/mcp-gateway-server';

const OTHER_TENANT = 'mcp-cases-acme';

interface CaseView {
  id: string;
  matterNumber: string;
  title: string;
  caseType: string;
  claimAmount: number;
  currency: string;
  defendantName: string;
  owner: string;
  tenantId: string;
}

/** The case tools end to end: the SDK Client → /mcp → case-management over RabbitMQ, as the caller. */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: create_litigation_case and get_case_by_id through case-management', () => {
  const platform = new OperationsTestPlatform('mcp-cases');
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';
  const casesCount = async (where = 'true', params: unknown[] = []) =>
    ((await platform.opsSql.query(`SELECT count(*)::int AS n FROM cases.litigation_case WHERE ${where}`, params)) as Array<{ n: number }>)[0]!.n;
  const clientAs = (sub: string, tenantId = SEEDED_TENANT) => connectMcp(baseUrl, mcpHeaders(platform.token({ sub, tenantId }), tenantId));

  beforeAll(async () => {
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
    await platform.grantRole(SEEDED_TENANT, 'viewer', 'case-viewer', ['cases.case.view']);
    await platform.seedTenantAdmin(OTHER_TENANT, 'alice');
  }, 120_000);
  afterAll(async () => {
    await close(server);
    await platform.stop();
  });

  it('creates a case with the spec arguments and reads it back by id', async () => {
    const client = await clientAs('admin');
    try {
      const created = await client.callTool({
        name: 'create_litigation_case',
        arguments: { CaseTitle: 'Acme v. Doe', CaseType: 'commercial', ClaimAmount: 12500.5, DefendantName: 'John Doe', Currency: 'EUR' },
      });
      expect(created.isError).toBeFalsy();
      const made = structured<CaseView>(created);
      expect(made).toMatchObject({
        title: 'Acme v. Doe',
        caseType: 'commercial',
        claimAmount: 12500.5,
        currency: 'EUR',
        defendantName: 'John Doe',
        owner: 'admin',
        tenantId: SEEDED_TENANT,
      });
      expect(made.matterNumber).toMatch(MATTER_NUMBER_PATTERN);

      const read = await client.callTool({ name: 'get_case_by_id', arguments: { CaseId: made.id } });
      expect(read.isError).toBeFalsy();
      expect(structured(read)).toEqual(made);
      expect(await casesCount('id = $1', [made.id])).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('ClaimAmount 0 is an isError result naming the argument, and nothing is created', async () => {
    const before = await casesCount();
    const client = await clientAs('admin');
    try {
      const result = await client.callTool({
        name: 'create_litigation_case',
        arguments: { CaseTitle: 'Zero claim', CaseType: 'civil', ClaimAmount: 0, DefendantName: 'Nobody' },
      });
      expect(result.isError).toBe(true);
      expect(toolError(result)).toMatchObject({ code: 'Validation.Failed', status: 400, errors: { ClaimAmount: ['ClaimAmount must be strictly positive'] } });
      expect(JSON.stringify(result.content)).toContain('ClaimAmount must be strictly positive');
    } finally {
      await client.close();
    }
    expect(await casesCount()).toBe(before);
  });

  it('a user without cases.case.create is denied by case-management: isError Authorization.Denied, nothing created', async () => {
    const before = await casesCount();
    const client = await clientAs('viewer');
    try {
      const result = await client.callTool({
        name: 'create_litigation_case',
        arguments: { CaseTitle: 'Not mine to file', CaseType: 'civil', ClaimAmount: 10, DefendantName: 'X' },
      });
      expect(result.isError).toBe(true);
      expect(toolError(result)).toMatchObject({ code: 'Authorization.Denied', status: 403 });
    } finally {
      await client.close();
    }
    expect(await casesCount()).toBe(before);
  });

  it("another tenant's case id is NotFound, never the case", async () => {
    const owner = await clientAs('alice', OTHER_TENANT);
    let foreignId: string;
    try {
      foreignId = structured<CaseView>(
        await owner.callTool({
          name: 'create_litigation_case',
          arguments: { CaseTitle: 'Acme internal', CaseType: 'labor', ClaimAmount: 99, DefendantName: 'Globex' },
        }),
      ).id;
      expect(foreignId).toEqual(expect.any(String));
    } finally {
      await owner.close();
    }
    const client = await clientAs('admin');
    try {
      const result = await client.callTool({ name: 'get_case_by_id', arguments: { CaseId: foreignId } });
      expect(result.isError).toBe(true);
      expect(toolError(result)).toMatchObject({ code: 'NotFound', status: 404 });
      expect(JSON.stringify(result)).not.toContain('Acme internal');
    } finally {
      await client.close();
    }
  });

  it('audits the case calls with their outcomes', async () => {
    await platform.service('mcp-gateway').app.get(ToolCallAudit).flush();
    const rows = (await platform.opsSql.query(
      `SELECT subject, tool, outcome, error_code FROM mcp.tool_call_audit WHERE tool IN ('create_litigation_case', 'get_case_by_id') ORDER BY created_at`,
    )) as Array<Record<string, string | null>>;
    // Written after each answer, not awaited by it: the order of the rows is not the order of the calls.
    expect(rows).toHaveLength(6);
    expect(rows).toEqual(
      expect.arrayContaining([
        { subject: 'admin', tool: 'create_litigation_case', outcome: 'succeeded', error_code: null },
        { subject: 'admin', tool: 'get_case_by_id', outcome: 'succeeded', error_code: null },
        { subject: 'admin', tool: 'create_litigation_case', outcome: 'invalid', error_code: 'Validation.Failed' },
        { subject: 'viewer', tool: 'create_litigation_case', outcome: 'denied', error_code: 'Authorization.Denied' },
        { subject: 'alice', tool: 'create_litigation_case', outcome: 'succeeded', error_code: null },
        { subject: 'admin', tool: 'get_case_by_id', outcome: 'not_found', error_code: 'NotFound' },
      ]),
    );
  });

  // Before: -32603 `errors[key].push is not a function`, internal text sent to the client. The SDK's own
  // request schema drops an argument named __proto__ before the gateway sees it (zod's record parsing).
  // After the audit test, which counts this file's calls.
  it.each(['constructor', 'toString', 'hasOwnProperty'])('an argument named %s is an isError Validation.Failed naming it, not -32603', async (key) => {
    const before = await casesCount();
    const client = await clientAs('admin');
    try {
      const args = JSON.parse(`{"CaseTitle":"Prototype","CaseType":"civil","ClaimAmount":1,"DefendantName":"D","${key}":{}}`) as Record<string, unknown>;
      const result = await client.callTool({ name: 'create_litigation_case', arguments: args });
      expect(result.isError).toBe(true);
      expect(toolError(result)).toMatchObject({ code: 'Validation.Failed', status: 400 });
      expect(Object.keys(toolError(result).errors ?? {})).toEqual([key]);
      expect(JSON.stringify(result.content)).not.toMatch(/is not a function|TypeError/);
    } finally {
      await client.close();
    }
    expect(await casesCount()).toBe(before);
  });
});

import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SEEDED_TENANT } from '@lp/contracts';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { MCP_TOOLS } from '@lp/service/mcp-gateway';
import { OperationsTestPlatform } from '../support/operations-platform';
import { signedRequests } from '../support/policy-platform';
import { close, connectMcp, listen, mcpHeaders, toolError } from '../support/mcp-gateway-server';

/** A tool call that must fail, and how: the problem's code and status. */
interface ErrorCase {
  tool: string;
  why: string;
  args: Record<string, unknown>;
  code: string;
  status: number;
  /** The argument the per-argument errors must name. */
  argument?: string;
}

const invalid = (tool: string, why: string, args: Record<string, unknown>, argument: string): ErrorCase => ({
  tool,
  why,
  args,
  code: 'Validation.Failed',
  status: 400,
  argument,
});

const validCase = { CaseTitle: 'Acme v. Doe', CaseType: 'civil', DefendantName: 'John Doe' };

/** Every tool's failures, for a caller who may use every tool: refused arguments and the owning service's refusals. */
const ERROR_CASES: ErrorCase[] = [
  invalid('create_litigation_case', 'ClaimAmount 0', { ...validCase, ClaimAmount: 0 }, 'ClaimAmount'),
  invalid('create_litigation_case', 'ClaimAmount 1.234 (three decimals)', { ...validCase, ClaimAmount: 1.234 }, 'ClaimAmount'),
  invalid('create_litigation_case', 'no arguments', {}, 'CaseTitle'),
  { tool: 'get_case_by_id', why: 'an unknown id', args: { CaseId: randomUUID() }, code: 'NotFound', status: 404 },
  { tool: 'get_case_by_id', why: 'an id no case has the form of', args: { CaseId: 'not-a-case' }, code: 'NotFound', status: 404 },
  invalid('get_case_by_id', 'an empty id', { CaseId: '' }, 'CaseId'),
  invalid('get_my_permissions', 'an argument it does not take', { Tenant: 'other' }, 'Tenant'),
  invalid('check_authorization', 'an action that does not exist', { Module: 'cases', Resource: 'case', Action: 'Fly' }, 'Action'),
  invalid('list_jobs', 'an argument it does not take', { JobName: 'x' }, 'JobName'),
  { tool: 'run_job', why: 'an unknown job', args: { JobName: 'nobody.no-such-job' }, code: 'NotFound', status: 404 },
  invalid('run_job', 'a malformed job name', { JobName: 'Not A Job' }, 'JobName'),
  invalid('list_my_workflow_tasks', 'PageSize 500', { PageSize: 500 }, 'PageSize'),
  { tool: 'approve_workflow_task', why: 'an unknown task', args: { TaskId: randomUUID() }, code: 'NotFound', status: 404 },
  invalid('approve_workflow_task', 'a malformed task id', { TaskId: 'not-a-task' }, 'TaskId'),
  { tool: 'reject_workflow_task', why: 'an unknown task', args: { TaskId: randomUUID(), Comment: 'no' }, code: 'NotFound', status: 404 },
  invalid('reject_workflow_task', 'a comment over 2,000 characters', { TaskId: randomUUID(), Comment: 'x'.repeat(2001) }, 'Comment'),
  {
    tool: 'start_workflow',
    why: 'a definition that was never deployed',
    args: { DefinitionKey: 'no-such-flow', BusinessKey: 'LIT-1' },
    code: 'Workflow.Definition.NotActive',
    status: 404,
  },
  invalid('start_workflow', 'Priority 101', { DefinitionKey: 'flow', BusinessKey: 'LIT-1', Priority: 101 }, 'Priority'),
  invalid('list_webhook_subscriptions', 'PageSize 500', { PageSize: 500 }, 'PageSize'),
];

/** Things that exist, since an owning service answers an unknown id NotFound before it asks about the caller. */
interface Existing {
  caseId: string;
  taskId: string;
}

/** A call each permission-gated tool would answer for a caller holding its permission. */
const permittedCalls = ({ caseId, taskId }: Existing): Record<string, Record<string, unknown>> => ({
  create_litigation_case: { ...validCase, ClaimAmount: 10 },
  get_case_by_id: { CaseId: caseId },
  list_jobs: {},
  run_job: { JobName: 'mcp-gateway.tool-call-audit-retention' },
  list_my_workflow_tasks: {},
  approve_workflow_task: { TaskId: taskId },
  reject_workflow_task: { TaskId: taskId },
  start_workflow: { DefinitionKey: 'no-such-flow', BusinessKey: 'LIT-2' },
  list_webhook_subscriptions: {},
});

/**
 * Issue 35: an error result must reach the official SDK client as a CallToolResult it can read. The
 * client validates `structuredContent` against the tool's output schema for every tool it has listed,
 * even on an error, so each client here lists the tools first (as AI clients do), and every failure
 * of every tool is checked through it: the arguments the gateway refuses, the owning service's
 * refusals, and the permission denials of a caller whose role went away after it listed the tools.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: every tool error reaches the SDK client as a readable isError result', () => {
  const platform = new OperationsTestPlatform('mcp-errors', { env: { MCP_CALLER_RATE_LIMIT: '100000', MCP_TENANT_RATE_LIMIT: '100000' } });
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';
  let admin: Client;
  const existing: Existing = { caseId: '', taskId: '' };

  beforeAll(async () => {
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
    admin = await connectMcp(baseUrl, mcpHeaders(platform.token(), SEEDED_TENANT));
    const created = await admin.callTool({ name: 'create_litigation_case', arguments: { ...validCase, ClaimAmount: 1 } });
    existing.caseId = (created.structuredContent as { id: string }).id;
    // One approval task, rita's.
    await signedRequests(platform.service('workflow-engine').http, platform.token())
      .post('/api/workflow/definitions/mcp-errors/deployments')
      .send({ definition: { name: 'MCP errors', nodes: [{ kind: 'approval', key: 'review', assignees: [{ kind: 'user', subjects: ['rita'] }] }] } })
      .expect(201);
    const started = await admin.callTool({ name: 'start_workflow', arguments: { DefinitionKey: 'mcp-errors', BusinessKey: 'ERR-1' } });
    const instanceId = (started.structuredContent as { instance: { id: string } }).instance.id;
    const [task] = (await platform
      .service('workflow-engine')
      .app.get(DataSource)
      .query(`SELECT id FROM workflow.task WHERE instance_id = $1`, [instanceId])) as Array<{
      id: string;
    }>;
    existing.taskId = task!.id;
  }, 120_000);
  afterAll(async () => {
    await admin?.close();
    await close(server);
    await platform.stop();
  });

  it('covers every tool of the catalog, and the administrator lists them all (so the client validates each)', async () => {
    const catalog = MCP_TOOLS.map((tool) => tool.name);
    expect(new Set(ERROR_CASES.map((c) => c.tool))).toEqual(new Set(catalog));
    expect((await admin.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...catalog].sort());
    expect(Object.keys(permittedCalls(existing)).sort()).toEqual(
      MCP_TOOLS.filter((tool) => tool.requires.length > 0)
        .map((tool) => tool.name)
        .sort(),
    );
  });

  it.each(ERROR_CASES.map((c) => [c.tool, c.why, c] as const))('%s, %s: isError with the problem in text, not McpError -32602', async (_tool, _why, c) => {
    const error = toolError(await admin.callTool({ name: c.tool, arguments: c.args }));
    expect(error).toMatchObject({ code: c.code, status: c.status });
    if (c.argument) expect(Object.keys(error.errors ?? {})).toContain(c.argument);
  });

  it('an unknown tool stays a protocol error (MCP: -32602), unlike a failing one', async () => {
    await expect(admin.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('a caller whose role is revoked after tools/list gets Authorization.Denied from every permission-gated tool, as readable results', async () => {
    await platform.grantRole(SEEDED_TENANT, 'lapsed', 'mcp-everything');
    const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub: 'lapsed' }), SEEDED_TENANT), { listTools: false });
    try {
      // Listed while the role held: the client now validates the results of every tool.
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOLS.map((tool) => tool.name).sort());
      const [role] = (await platform.sql.query(`SELECT id FROM authz.role WHERE tenant_id = $1 AND name = 'mcp-everything'`, [SEEDED_TENANT])) as Array<{
        id: string;
      }>;
      await platform.as().delete(`/api/authorization/users/lapsed/roles/${role!.id}`).expect(204);
      await eventually(
        () => client.callTool({ name: 'list_jobs', arguments: {} }),
        (result) => result.isError === true,
        10_000,
      );
      const answers: Record<string, string> = {};
      for (const [tool, args] of Object.entries(permittedCalls(existing))) {
        const error = toolError(await client.callTool({ name: tool, arguments: args }));
        answers[tool] = `${error.status} ${error.code}`;
      }
      expect(answers).toEqual(Object.fromEntries(Object.keys(permittedCalls(existing)).map((tool) => [tool, '403 Authorization.Denied'])));
    } finally {
      await client.close();
    }
  });
});

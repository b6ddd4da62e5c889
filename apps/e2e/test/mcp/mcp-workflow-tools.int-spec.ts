import { DataSource } from 'typeorm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { problemOfResult, ToolCallAudit } from '@lp/service/mcp-gateway';
import { OperationsTestPlatform } from '../support/operations-platform';
import { signedRequests } from '../support/policy-platform';
import { close, connectMcp, listen, mcpHeaders, structured, toolError } from '../support/mcp-gateway-server';

const TENANT = 'mcp-wf';
const OTHER_TENANT = 'mcp-wf-acme';
const APPROVE = ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject'];

interface TaskView {
  id: string;
  nodeKey: string;
  assignee: string;
  status: string;
  businessKey?: string;
}
interface InstanceView {
  id: string;
  status: string;
  businessKey: string;
  initiator: string;
}

/** One approval step for rita, then one for otto: enough to approve, reject and race a second vote. */
const review = {
  name: 'MCP review',
  nodes: [
    { kind: 'approval', key: 'review', assignees: [{ kind: 'user', subjects: ['rita'] }] },
    { kind: 'approval', key: 'sign-off', assignees: [{ kind: 'user', subjects: ['otto'] }] },
  ],
};

/** The workflow tools end to end: the SDK Client → /mcp → workflow-engine over RabbitMQ, as the caller. */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: the workflow tools through workflow-engine', () => {
  const platform = new OperationsTestPlatform('mcp-wf', { env: { MCP_CALLER_RATE_LIMIT: '100000', MCP_TENANT_RATE_LIMIT: '100000' } });
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';
  let sql: DataSource;
  const count = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params))[0].n);
  const withClient = async <T>(sub: string, run: (client: Client) => Promise<T>, tenantId = TENANT): Promise<T> => {
    const client = await connectMcp(baseUrl, mcpHeaders(platform.token({ sub, tenantId }), tenantId));
    try {
      return await run(client);
    } finally {
      await client.close();
    }
  };
  const call = (sub: string, name: string, args: Record<string, unknown>, tenantId = TENANT) =>
    withClient(sub, (client) => client.callTool({ name, arguments: args }), tenantId);
  const todoOf = async (sub: string, tenantId = TENANT) =>
    structured<{ items: TaskView[]; totalCount: number }>(await call(sub, 'list_my_workflow_tasks', {}, tenantId));

  beforeAll(async () => {
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
    sql = platform.service('workflow-engine').app.get(DataSource);
    await platform.seedTenantAdmin(TENANT, 'wanda');
    await platform.seedTenantAdmin(OTHER_TENANT, 'alice');
    await platform.grantRole(TENANT, 'ina', 'starter', ['workflow.instance.create', 'workflow.task.view']);
    for (const sub of ['rita', 'otto']) await platform.grantRole(TENANT, sub, 'approver', APPROVE);
    for (const [tenantId, sub] of [
      [TENANT, 'wanda'],
      [OTHER_TENANT, 'alice'],
    ]) {
      await signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }))
        .post('/api/workflow/definitions/mcp-review/deployments')
        .send({ definition: review })
        .expect(201);
    }
  }, 120_000);
  afterAll(async () => {
    await close(server);
    await platform.stop();
  });

  it('lists the tools a caller may use: an approver sees the task tools, not start_workflow', async () => {
    const names = await withClient('rita', async (client) => (await client.listTools()).tools.map((t) => t.name));
    expect(names).toEqual(expect.arrayContaining(['list_my_workflow_tasks', 'approve_workflow_task', 'reject_workflow_task']));
    expect(names).not.toContain('start_workflow');
    const start = await withClient('ina', async (client) => (await client.listTools()).tools.find((t) => t.name === 'start_workflow'));
    expect(start?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
  });

  it('starts a workflow idempotently by business key, then the approver lists, approves and the next step opens', async () => {
    const first = await call('ina', 'start_workflow', { DefinitionKey: 'mcp-review', BusinessKey: 'LIT-2026-000001', Variables: { amount: 10 } });
    expect(first.isError).toBeFalsy();
    const started = structured<{ instance: InstanceView; created: boolean }>(first);
    expect(started).toMatchObject({ created: true, instance: { status: 'Running', businessKey: 'LIT-2026-000001', initiator: 'ina' } });
    const again = structured<{ instance: InstanceView; created: boolean }>(
      await call('ina', 'start_workflow', { DefinitionKey: 'mcp-review', BusinessKey: 'LIT-2026-000001' }),
    );
    expect(again).toMatchObject({ created: false, instance: { id: started.instance.id } });
    expect(await count(`SELECT count(*)::int AS n FROM workflow.instance WHERE tenant_id = $1 AND business_key = 'LIT-2026-000001'`, [TENANT])).toBe(1);

    const todo = await todoOf('rita');
    const task = todo.items.find((t) => t.businessKey === 'LIT-2026-000001');
    expect(task).toMatchObject({ nodeKey: 'review', assignee: 'rita', status: 'Pending' });
    const approved = await call('rita', 'approve_workflow_task', { TaskId: task!.id, Comment: 'looks right' });
    expect(approved.isError).toBeFalsy();
    expect(structured(approved)).toMatchObject({
      task: { id: task!.id, status: 'Approved', comment: 'looks right', decidedBy: 'rita' },
      nodeClosed: true,
      instance: { id: started.instance.id, status: 'Running' },
    });
    expect((await todoOf('otto')).items.map((t) => t.businessKey)).toContain('LIT-2026-000001');

    // A vote is final: the same call again is the route's 409.
    const twice = await call('rita', 'approve_workflow_task', { TaskId: task!.id });
    expect(twice.isError).toBe(true);
    expect(toolError(twice)).toMatchObject({ status: 409, code: 'Workflow.Task.NotPending' });
  });

  it('rejects to the end: the instance is Rejected and the rejection comment kept', async () => {
    const { instance } = structured<{ instance: InstanceView }>(await call('ina', 'start_workflow', { DefinitionKey: 'mcp-review', BusinessKey: 'REJ-1' }));
    const task = (await todoOf('rita')).items.find((t) => t.businessKey === 'REJ-1')!;
    const rejected = await call('rita', 'reject_workflow_task', { TaskId: task.id, Comment: 'missing exhibit' });
    expect(structured(rejected)).toMatchObject({ task: { status: 'Rejected', comment: 'missing exhibit' }, instance: { id: instance.id, status: 'Rejected' } });
  });

  it('refuses what the route refuses: someone else’s task, no permission, another tenant’s id, a malformed id', async () => {
    structured(await call('ina', 'start_workflow', { DefinitionKey: 'mcp-review', BusinessKey: 'DENY-1' }));
    const task = (await todoOf('rita')).items.find((t) => t.businessKey === 'DENY-1')!;
    // otto holds the permission, but the task is rita's.
    expect(toolError(await call('otto', 'approve_workflow_task', { TaskId: task.id }))).toMatchObject({ status: 403, code: 'Authorization.Denied' });
    // ina may start but not approve.
    expect(toolError(await call('ina', 'reject_workflow_task', { TaskId: task.id }))).toMatchObject({ status: 403, code: 'Authorization.Denied' });
    // alice of another tenant: the id is not there.
    expect(toolError(await call('alice', 'approve_workflow_task', { TaskId: task.id }, OTHER_TENANT))).toMatchObject({ status: 404, code: 'NotFound' });
    const malformed = await call('rita', 'approve_workflow_task', { TaskId: 'not-a-task' });
    expect(malformed.isError).toBe(true);
    expect(JSON.stringify(malformed.content)).toContain('TaskId');
    expect(await count(`SELECT count(*)::int AS n FROM workflow.task WHERE id = $1 AND status = 'Pending'`, [task.id])).toBe(1);
  });

  it('honours workflow.runtime: while it is off a vote is Feature.Disabled and nothing changes; the todo list still reads', async () => {
    structured(await call('ina', 'start_workflow', { DefinitionKey: 'mcp-review', BusinessKey: 'FEAT-1' }));
    const task = (await todoOf('rita')).items.find((t) => t.businessKey === 'FEAT-1')!;
    const toggle = (enabled: boolean) =>
      platform.as('wanda', TENANT).put('/api/authorization/features/workflow.runtime').send({ enabled, scope: 'tenant' }).expect(200);
    // Polled with a start of a key that has no definition: 404 while the gate is open, so the probe writes nothing.
    const probe = () => call('ina', 'start_workflow', { DefinitionKey: 'no-such-flow', BusinessKey: 'PROBE' });
    await toggle(false);
    try {
      const off = await eventually(probe, (result) => problemOfResult(result)?.code === 'Feature.Disabled', 20_000);
      expect(toolError(off)).toMatchObject({ status: 403, code: 'Feature.Disabled' });
      expect(toolError(await call('rita', 'approve_workflow_task', { TaskId: task.id }))).toMatchObject({ status: 403, code: 'Feature.Disabled' });
      expect((await todoOf('rita')).items.map((t) => t.id)).toContain(task.id);
      expect(await count(`SELECT count(*)::int AS n FROM workflow.task WHERE id = $1 AND status = 'Pending'`, [task.id])).toBe(1);
    } finally {
      await toggle(true);
    }
    await eventually(probe, (result) => problemOfResult(result)?.code === 'Workflow.Definition.NotActive', 20_000);
    const on = await call('rita', 'approve_workflow_task', { TaskId: task.id });
    expect(structured(on)).toMatchObject({ task: { status: 'Approved' } });
  });

  it('audits the workflow tool calls with their outcomes', async () => {
    await platform.service('mcp-gateway').app.get(ToolCallAudit).flush();
    const rows = (await platform.opsSql.query(
      `SELECT tool, outcome, error_code FROM mcp.tool_call_audit WHERE tool = 'approve_workflow_task' AND error_code = 'Authorization.Denied'`,
    )) as unknown[];
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });
});

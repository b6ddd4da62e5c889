import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventTypes, PERMISSION_REQUEST_DEFINITION_KEY } from '@lp/contracts';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { PermissionRequestWorkflowListener } from '@lp/service/policy-management';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';

const BASE = '/api/authorization/permission-requests';
const ROLES = '/api/authorization/roles';
const TASKS = '/api/workflow/tasks';
const RUNTIME = '/api/workflow/runtime';
const ROLE_VIEW = 'authorization.role.view';
/** What a member of the tenant role `permission-approver` needs: the task, and the authority to approve a request. */
const APPROVER = [
  'workflow.task.view',
  'workflow.task.approve',
  'workflow.task.reject',
  'workflow.instance.view',
  'authorization.permission-requests.approve',
  'authorization.permission-requests.reject',
];

interface Request {
  id: string;
  subject: string;
  status: string;
  decidedBy: string | null;
  decisionNote: string | null;
  grantId: string | null;
  grantExpiresAt: string | null;
  workflowInstanceId: string | null;
}
interface Task {
  id: string;
  instanceId: string;
  assignee: string;
  definitionKey: string;
  businessKey: string;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'permission requests approved on the workflow engine (whole fleet)', () => {
  const platform = new OperationsTestPlatform('wf-permreq', { env: { USER_POLICY_LIMIT: '100000' } });
  let wf: DataSource;
  const engine = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));

  const file = async (subject: string, tenant = 'default', durationSeconds = 60): Promise<Request> =>
    (
      await platform
        .as(subject, tenant)
        .post(BASE)
        .send({ permissionCodes: [ROLE_VIEW], durationSeconds, reason: 'quarter-end review' })
        .expect(201)
    ).body;
  const mine = async (subject: string, id: string, tenant = 'default'): Promise<Request | undefined> =>
    ((await platform.as(subject, tenant).get(`${BASE}/mine`).expect(200)).body.items as Request[]).find((r) => r.id === id);
  /** The request once its workflow instance is recorded on it (the engine consumed the filing event, policy-management `started`). */
  const recorded = async (subject: string, id: string, tenant = 'default'): Promise<Request> => {
    const request = await eventually(
      () => mine(subject, id, tenant),
      (r) => !!r?.workflowInstanceId,
      15_000,
    );
    if (!request?.workflowInstanceId) throw new Error(`no workflow instance recorded on ${id}`);
    return request;
  };
  const todo = async (sub: string, tenant = 'default'): Promise<Task[]> =>
    (await engine(sub, tenant).get(`${TASKS}/todo?pageSize=100`).expect(200)).body.items.filter(
      (t: Task) => t.definitionKey === PERMISSION_REQUEST_DEFINITION_KEY,
    );
  const taskFor = async (sub: string, requestId: string, tenant = 'default'): Promise<Task> => {
    const tasks = await eventually(
      () => todo(sub, tenant),
      (list) => list.some((t) => t.businessKey === requestId),
      10_000,
    );
    const task = tasks.find((t) => t.businessKey === requestId);
    if (!task) throw new Error(`${sub} has no task for request ${requestId}`);
    return task;
  };
  const decided = (subject: string, id: string, tenant = 'default') =>
    eventually(
      () => mine(subject, id, tenant),
      (r) => r?.status !== 'pending',
      10_000,
    );
  const assigneesOf = async (instanceId: string): Promise<string[]> =>
    (await wf.query(`SELECT assignee FROM workflow.task WHERE instance_id = $1 ORDER BY assignee`, [instanceId])).map((r: { assignee: string }) => r.assignee);

  beforeAll(async () => {
    await platform.start();
    wf = platform.service('workflow-engine').app.get(DataSource);
    for (const sub of ['paula', 'pete']) await platform.grantRole('default', sub, 'permission-approver', APPROVER);
    await platform.seedTenantAdmin('acme', 'ann');
    await platform.grantRole('acme', 'carl', 'acme-worker', ['workflow.task.view', 'workflow.task.approve', 'workflow.instance.view']);
  }, 120_000);
  afterAll(() => platform.stop());

  it('file → the approver’s todo → complete → the grant permits the requester → it expires → denied', async () => {
    await platform.as('erin').get(ROLES).expect(403);
    const filed = await file('erin');
    expect(filed).toMatchObject({ status: 'pending', workflowInstanceId: null });

    const request = await recorded('erin', filed.id);
    const instanceId = request.workflowInstanceId as string;
    // Seeded on first need; the instance carries the request and the approvers, never the requester.
    const [binding] = await wf.query(`SELECT count(*)::int AS n FROM workflow.definition_binding WHERE tenant_id = 'default' AND key = $1`, [
      PERMISSION_REQUEST_DEFINITION_KEY,
    ]);
    expect(binding.n).toBe(1);
    const [instance] = await wf.query(`SELECT initiator, business_key, variables, status FROM workflow.instance WHERE id = $1`, [instanceId]);
    expect(instance).toMatchObject({ initiator: 'erin', business_key: filed.id, status: 'Running' });
    expect(instance.variables).toMatchObject({
      requestId: filed.id,
      requester: 'erin',
      permissionCodes: [ROLE_VIEW],
      durationSeconds: 60,
      reason: 'quarter-end review',
    });
    expect([...instance.variables.approvers].sort()).toEqual(['admin', 'paula', 'pete']);

    const task = await taskFor('paula', filed.id);
    expect(task.instanceId).toBe(instanceId);
    expect(await assigneesOf(instanceId)).toEqual(['admin', 'paula', 'pete']);

    // While the workflow decides it, the routes do not.
    const before = await platform.count('temporary_grant');
    expectProblem(await platform.as().post(`${BASE}/${filed.id}/approve`).send({}), 409, 'Authorization.RequestDecidedByWorkflow');
    expectProblem(await platform.as().post(`${BASE}/${filed.id}/reject`).send({}), 409, 'Authorization.RequestDecidedByWorkflow');
    expect(await platform.count('temporary_grant')).toBe(before);

    await engine('paula').post(`${RUNTIME}/tasks/${task.id}/complete`).send({ comment: 'fine for a minute' }).expect(200);
    const approved = await decided('erin', filed.id);
    expect(approved).toMatchObject({ status: 'approved', decidedBy: 'paula', workflowInstanceId: instanceId });
    expect(approved?.grantId).toBeTruthy();
    const [grant] = await platform.sql.query(`SELECT subject, permission_codes, created_by, source_id FROM authz.temporary_grant WHERE id = $1`, [
      approved?.grantId,
    ]);
    expect(grant).toEqual({ subject: 'erin', permission_codes: [ROLE_VIEW], created_by: 'paula', source_id: filed.id });
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'permission-request.approved' AND actor = 'paula'`, [filed.id])).toBe(1);
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'permission-request.workflow-started'`, [filed.id])).toBe(1);
    // The other approvers' tasks closed with the instance.
    expect(await todo('admin').then((tasks) => tasks.filter((t) => t.businessKey === filed.id))).toEqual([]);

    // The decision permits the requested code for the requester, and nothing else.
    expect(
      (
        await eventually(
          () => platform.as('erin').get(ROLES),
          (res) => res.status === 200,
          5_000,
        )
      ).status,
    ).toBe(200);
    await platform.as('erin').get(BASE).expect(403);

    // The grant runs out: bring its expiry close instead of waiting a minute.
    await platform.sql.query(`UPDATE authz.temporary_grant SET expires_at = now() + interval '2 seconds' WHERE id = $1`, [approved?.grantId]);
    await platform.invalidate(EventTypes.authorization.temporaryGrantChanged, 'default', { tenantId: 'default', subject: 'erin', grantId: approved?.grantId });
    const denied = await eventually(
      () => platform.as('erin').get(ROLES),
      (res) => res.status === 403,
      6_000,
      100,
    );
    expect(denied.status).toBe(403);
    expect((await mine('erin', filed.id))?.status).toBe('expired');
  }, 60_000);

  it('four eyes: an approver who files never gets the task, cannot approve through the route; a rejection in the workflow rejects', async () => {
    const filed = await file('pete');
    const { workflowInstanceId } = await recorded('pete', filed.id);
    await taskFor('paula', filed.id);
    expect(await assigneesOf(workflowInstanceId as string)).toEqual(['admin', 'paula']);
    expect((await todo('pete')).filter((t) => t.businessKey === filed.id)).toEqual([]);
    expectProblem(await platform.as('pete').post(`${BASE}/${filed.id}/approve`).send({}), 409, 'Authorization.RequestDecidedByWorkflow');

    const task = await taskFor('admin', filed.id);
    await engine('admin').post(`${RUNTIME}/tasks/${task.id}/reject`).send({ comment: 'not this quarter' }).expect(200);
    const rejected = await decided('pete', filed.id);
    expect(rejected).toMatchObject({ status: 'rejected', decidedBy: 'admin', grantId: null });
    expect(await platform.count('temporary_grant', `source_id = $1`, [filed.id])).toBe(0);
  }, 60_000);

  it('the requester withdrawing the instance rejects the request', async () => {
    const filed = await file('erin');
    const { workflowInstanceId } = await recorded('erin', filed.id);
    await engine('admin').post(`${RUNTIME}/instances/${workflowInstanceId}/withdraw`).send({}).expect(403); // only the initiator withdraws
    await platform.grantRole('default', 'erin', 'workflow-requester', ['workflow.instance.update', 'workflow.instance.view']);
    await engine('erin').post(`${RUNTIME}/instances/${workflowInstanceId}/withdraw`).send({ reason: 'no longer needed' }).expect(200);
    expect(await decided('erin', filed.id)).toMatchObject({ status: 'rejected', decidedBy: 'erin', decisionNote: expect.stringContaining('no longer needed') });
  }, 60_000);

  it("a tenant's own published version wins; an approval by someone without Approve, or by the requester, rejects the request", async () => {
    // acme's own version gives the task to the initiator: the engine allows it, policy-management does not.
    const own = { name: 'Self service', nodes: [{ kind: 'approval', key: 'self', assignees: [{ kind: 'initiator' }] }] };
    await engine('ann', 'acme').post(`/api/workflow/definitions/${PERMISSION_REQUEST_DEFINITION_KEY}/deployments`).send({ definition: own }).expect(201);
    const selfApproved = async () => {
      const filed = await file('carl', 'acme');
      await recorded('carl', filed.id, 'acme');
      const task = await taskFor('carl', filed.id, 'acme');
      await engine('carl', 'acme').post(`${RUNTIME}/tasks/${task.id}/complete`).send({}).expect(200);
      return { filed, refused: await decided('carl', filed.id, 'acme') };
    };
    // carl may vote in the engine but not approve permission requests: the vote grants nothing.
    const unauthorized = await selfApproved();
    expect(unauthorized.refused).toMatchObject({
      status: 'rejected',
      grantId: null,
      decisionNote: expect.stringContaining('without authorization.permission-requests.approve'),
    });
    // With Approve, carl is still the requester: four eyes.
    await platform.grantRole('acme', 'carl', 'acme-approver', ['authorization.permission-requests.approve']);
    const { filed, refused } = await selfApproved();
    expect(refused).toMatchObject({ status: 'rejected', grantId: null, decisionNote: expect.stringContaining('Four eyes') });
    expect(await platform.count('temporary_grant', `source_id = ANY($1::text[])`, [[filed.id, unauthorized.filed.id]])).toBe(0);
    const [versions] = await wf.query(`SELECT count(*)::int AS n FROM workflow.definition_version WHERE tenant_id = 'acme' AND key = $1`, [
      PERMISSION_REQUEST_DEFINITION_KEY,
    ]);
    expect(versions.n).toBe(1); // the shipped definition was not seeded over the tenant's own
  }, 60_000);

  it('a redelivered completion changes nothing; another event of the same instance finds the request decided', async () => {
    const filed = await file('erin');
    const { workflowInstanceId } = await recorded('erin', filed.id);
    const task = await taskFor('paula', filed.id);
    await engine('paula').post(`${RUNTIME}/tasks/${task.id}/complete`).send({}).expect(200);
    const approved = await decided('erin', filed.id);
    expect(approved?.status).toBe('approved');

    const [event] = await wf.query(
      `SELECT event_id AS "eventId" FROM workflow.outbox_message WHERE event_type = 'workflow.instance.completed' AND envelope->'payload'->>'instanceId' = $1`,
      [workflowInstanceId],
    );
    const listener = platform.policy.app.get(PermissionRequestWorkflowListener);
    const counts = async () => ({
      grants: await platform.count('temporary_grant', `source_id = $1`, [filed.id]),
      log: await platform.count('policy_change_log', `target_id = $1`, [filed.id]),
      outbox: await platform.count('outbox_message'),
    });
    const before = await counts();
    expect(await listener.follow(event, 'default', filed.id, workflowInstanceId as string, { kind: 'approved', by: 'paula' })).toBe(false);
    expect(await listener.follow({ eventId: randomUUID() }, 'default', filed.id, workflowInstanceId as string, { kind: 'approved', by: 'admin' })).toBe(false);
    expect(
      await listener.follow({ eventId: randomUUID() }, 'default', filed.id, workflowInstanceId as string, { kind: 'rejected', by: 'admin', note: 'late' }),
    ).toBe(false);
    expect(await counts()).toEqual(before);
    expect(await mine('erin', filed.id)).toMatchObject({ status: 'approved', decidedBy: 'paula', grantId: approved?.grantId });
  }, 60_000);

  it('clients cannot start the permission-request flow themselves (it would take a request’s business key before its filing event)', async () => {
    const filed = await file('erin');
    const before = await wf.query(`SELECT count(*)::int AS n FROM workflow.instance WHERE business_key = $1`, [filed.id]);
    for (const res of [
      await engine('admin').post(`${RUNTIME}/instances`).send({ definitionKey: PERMISSION_REQUEST_DEFINITION_KEY, businessKey: filed.id }),
      await engine('admin')
        .post(`${RUNTIME}/instances/start-at-node`)
        .send({ definitionKey: PERMISSION_REQUEST_DEFINITION_KEY, businessKey: filed.id, nodeKey: 'approve' }),
    ]) {
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors.definitionKey).toEqual([expect.stringContaining('started by the platform itself')]);
    }
    expect(await wf.query(`SELECT count(*)::int AS n FROM workflow.instance WHERE business_key = $1`, [filed.id])).toEqual(before);
  });
});

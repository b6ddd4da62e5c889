import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';
import { approval, DEFS, RUNTIME } from '../support/workflow-routes';

const DESIGN = ['workflow.definition.view', 'workflow.definition.update', 'workflow.definition.manage'];
const START = ['workflow.instance.create', 'workflow.instance.view', 'workflow.task.view', 'workflow.instance.update'];
const MANAGE = ['workflow.instance.manage', 'workflow.instance.view'];
const APPROVE = ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject', 'workflow.instance.view'];

/** intake, then (amount > 1000) the parallel reviews fin | desk, else lead; then the board (all). */
const chain = {
  name: 'Chain',
  nodes: [
    approval('intake', ['lena']),
    {
      kind: 'exclusive',
      key: 'size',
      branches: [
        {
          key: 'large',
          condition: { '>': [{ var: 'amount' }, 1000] },
          nodes: [{ kind: 'parallel', key: 'reviews', branches: [{ nodes: [approval('fin', ['finn'])] }, { nodes: [approval('desk', ['dora'])] }] }],
        },
        { key: 'small', default: true, nodes: [approval('lead', ['leo'])] },
      ],
    },
    approval('board', ['anna', 'ben'], { mode: 'all' }),
  ],
};
/** The applicant confirms with otto (all), otto reviews, the applicant acknowledges (sequential after otto). */
const applicant = {
  name: 'Applicant',
  nodes: [
    { kind: 'approval', key: 'confirm', mode: 'all', assignees: [{ kind: 'initiator' }, { kind: 'user', subjects: ['otto'] }], operations: { delegate: true } },
    { kind: 'approval', key: 'ack', assignees: [{ kind: 'user', subjects: ['otto'] }, { kind: 'initiator' }] },
  ],
};
const trio = { name: 'Trio', nodes: [approval('trio', ['anna', 'ben', 'carl'], { mode: 'all', operations: { delegate: true } }), approval('after', ['dora'])] };
const either = { name: 'Either', nodes: [approval('either', ['carl', 'dora'], { mode: 'any' })] };

interface Task {
  id: string;
  nodeKey: string;
  assignee: string;
  status: string;
  visit: number;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: administrative runtime operations over HTTP', () => {
  const platform = new OperationsTestPlatform('wfadm', { env: { USER_POLICY_LIMIT: '100000' } });
  let sql: DataSource;
  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));
  const n = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params))[0].n);
  const events = (type: string, instanceId: string) =>
    n(`SELECT count(*)::int AS n FROM workflow.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'instanceId' = $2`, [type, instanceId]);
  const audits = (instanceId: string): Promise<Array<Record<string, unknown>>> =>
    sql.query(`SELECT * FROM workflow.admin_audit WHERE instance_id = $1 ORDER BY created_at`, [instanceId]);
  /** Everything a runtime write can leave behind. */
  const written = async () => ({
    instances: await n(`SELECT count(*)::int AS n FROM workflow.instance`),
    tasks: await n(`SELECT count(*)::int AS n FROM workflow.task`),
    decided: await n(`SELECT count(*)::int AS n FROM workflow.task WHERE status <> 'Pending'`),
    versions: await n(`SELECT coalesce(sum(version), 0)::int AS n FROM workflow.instance`),
    outbox: await n(`SELECT count(*)::int AS n FROM workflow.outbox_message`),
    audit: await n(`SELECT count(*)::int AS n FROM workflow.admin_audit`),
  });
  const progress = async (id: string, tenantId = 'default') =>
    (
      await as(tenantId === 'default' ? 'mia' : 'gus', tenantId)
        .get(`${RUNTIME}/instances/${id}/progress`)
        .expect(200)
    ).body;
  const tasks = async (id: string): Promise<Task[]> => (await progress(id)).nodes.flatMap((node: { tasks: Task[] }) => node.tasks);
  const pending = async (id: string) => (await tasks(id)).filter((t) => t.status === 'Pending');
  const taskOf = async (id: string, assignee: string): Promise<Task> => {
    const task = (await pending(id)).find((t) => t.assignee === assignee);
    if (!task) throw new Error(`no pending task for ${assignee} in ${id}`);
    return task;
  };
  const complete = (sub: string, task: Task) => as(sub).post(`${RUNTIME}/tasks/${task.id}/complete`).send({});
  const start = (key: string, businessKey: string, variables: object = {}, sub = 'ina') =>
    as(sub).post(`${RUNTIME}/instances`).send({ definitionKey: key, businessKey, variables });
  const startAt = (body: object, sub = 'mia', tenantId = 'default') => as(sub, tenantId).post(`${RUNTIME}/instances/start-at-node`).send(body);
  const reset = (id: string, body: object, sub = 'mia', tenantId = 'default') => as(sub, tenantId).post(`${RUNTIME}/instances/${id}/reset`).send(body);
  const transferApplicant = (id: string, body: object, sub = 'mia', tenantId = 'default') =>
    as(sub, tenantId).post(`${RUNTIME}/instances/${id}/transfer-applicant`).send(body);
  const batch = (body: object, sub = 'mia', tenantId = 'default') => as(sub, tenantId).post(`${RUNTIME}/tasks/batch-complete`).send(body);

  beforeAll(async () => {
    await platform.start();
    sql = platform.service('workflow-engine').app.get(DataSource);
    await platform.grantRole('default', 'wanda', 'workflow-designer', DESIGN);
    // Applicants approve too: the `applicant` definition gives them tasks.
    await platform.grantRole('default', 'ina', 'workflow-starter', [...START, ...APPROVE]);
    await platform.grantRole('default', 'ivan', 'workflow-starter-2', [...START, ...APPROVE]);
    await platform.grantRole('default', 'mia', 'workflow-admin', MANAGE);
    for (const sub of ['lena', 'otto', 'anna', 'ben', 'carl', 'dora', 'finn', 'leo']) await platform.grantRole('default', sub, 'workflow-approver', APPROVE);
    await platform.grantRole('default', 'nora', 'case-reader', ['cases.case.view']);
    await platform.grantRole('acme', 'alice', 'workflow-all', [...DESIGN, ...START, ...APPROVE, ...MANAGE]);
    await platform.seedTenantAdmin('globex', 'gus');
    for (const [key, definition] of Object.entries({ chain, applicant, trio, either })) {
      await as('wanda').post(`${DEFS}/${key}/deployments`).send({ definition }).expect(201);
    }
    await as('alice', 'acme').post(`${DEFS}/trio/deployments`).send({ definition: trio }).expect(201);
    await as('gus', 'globex').post(`${DEFS}/chain/deployments`).send({ definition: chain }).expect(201);
  }, 120_000);
  afterAll(() => platform.stop());

  describe('start at a node', () => {
    it('starts on the active version at a main-sequence node, the caller the initiator, audited; the same business key answers that instance', async () => {
      const res = await startAt({ definitionKey: 'chain', businessKey: 'SAN-1', nodeKey: 'board', variables: { amount: 5 }, reason: 'migrated' }).expect(201);
      const id = res.body.id;
      expect(res.body).toMatchObject({ definitionKey: 'chain', businessKey: 'SAN-1', initiator: 'mia', status: 'Running', variables: { amount: 5 } });
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}:${t.visit}`).sort()).toEqual(['board:anna:1', 'board:ben:1']);
      expect(await events('workflow.instance.started', id)).toBe(1);
      expect(await events('workflow.instance.started-at-node', id)).toBe(1);
      expect(await audits(id)).toEqual([
        expect.objectContaining({
          tenant_id: 'default',
          operation: 'start-at-node',
          subject: 'mia',
          actor: null,
          task_id: null,
          before: null,
          after: expect.objectContaining({ nodeKey: 'board', status: 'Running', open: ['board'], initiator: 'mia' }),
          reason: 'migrated',
          correlation_id: expect.any(String),
        }),
      ]);
      const again = await startAt({ definitionKey: 'chain', businessKey: 'SAN-1', nodeKey: 'intake' }).expect(200);
      expect(again.body).toEqual(res.body);
      expect(await audits(id)).toHaveLength(1);
      // The flow goes on from there as usual.
      await complete('anna', await taskOf(id, 'anna')).expect(200);
      expect((await complete('ben', await taskOf(id, 'ben')).expect(200)).body.instance.status).toBe('Approved');
    });

    it('inside a branch: takes that branch and runs the sibling parallel branch from its start; the join waits for both', async () => {
      const id = (await startAt({ definitionKey: 'chain', businessKey: 'SAN-2', nodeKey: 'fin', variables: { amount: 1 } }).expect(201)).body.id;
      expect((await pending(id)).map((t) => t.nodeKey).sort()).toEqual(['desk', 'fin']);
      const nodes = (await progress(id)).nodes.map((node: { key: string; state: string }) => `${node.key}:${node.state}`);
      expect(nodes).toEqual(['intake:not-reached', 'size:passed', 'reviews:passed', 'fin:waiting', 'desk:waiting', 'lead:not-reached', 'board:not-reached']);
      await complete('finn', await taskOf(id, 'finn')).expect(200);
      expect((await pending(id)).map((t) => t.nodeKey)).toEqual(['desk']);
      await complete('dora', await taskOf(id, 'dora')).expect(200);
      expect((await pending(id)).map((t) => t.nodeKey)).toEqual(['board', 'board']);
    });

    it('refuses an unknown node, `start` and non-approval nodes with 422, an inactive key with 404, bad bodies with 400; nothing written', async () => {
      const before = await written();
      for (const nodeKey of ['nowhere', 'start', 'size', 'reviews']) {
        expectProblem(await startAt({ definitionKey: 'chain', businessKey: `SAN-BAD-${nodeKey}`, nodeKey }), 422, 'Workflow.Runtime.NodeNotAllowed');
      }
      expectProblem(await startAt({ definitionKey: 'missing', businessKey: 'SAN-X', nodeKey: 'board' }), 404, 'Workflow.Definition.NotActive');
      expectProblem(await startAt({ definitionKey: 'chain', businessKey: 'SAN-X' }), 400, 'Validation.Failed');
      expectProblem(await startAt({ definitionKey: 'chain', businessKey: 'SAN-X', nodeKey: 'board', initiator: 'ina' }), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);
    });
  });

  describe('reset', () => {
    it('moves a Running instance back and forward: open tasks cancelled, the node opens anew (visit + 1), one transaction, audited', async () => {
      const started = (await start('chain', 'RST-1', { amount: 5000 }).expect(201)).body;
      const id = started.id;
      await complete('lena', await taskOf(id, 'lena')).expect(200);
      expect((await pending(id)).map((t) => t.nodeKey).sort()).toEqual(['desk', 'fin']);
      const current = (await progress(id)).instance;

      const back = await reset(id, { nodeKey: 'intake', reason: 'missing annex', version: current.version }).expect(200);
      expect(back.body).toMatchObject({ status: 'Running', version: current.version + 1, initiator: 'ina' });
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}:${t.visit}`)).toEqual(['intake:lena:2']);
      const all = await tasks(id);
      expect(all.filter((t) => t.nodeKey === 'fin' || t.nodeKey === 'desk').map((t) => t.status)).toEqual(['Cancelled', 'Cancelled']);
      expect(await events('workflow.instance.reset', id)).toBe(1);
      const [row] = await audits(id);
      expect(row).toMatchObject({
        operation: 'reset',
        subject: 'mia',
        actor: null,
        reason: 'missing annex',
        before: { status: 'Running', open: expect.arrayContaining(['fin', 'desk']), initiator: 'ina', version: current.version },
        after: { status: 'Running', open: ['intake'], initiator: 'ina', version: current.version + 1 },
      });

      // Forward, past the gateway, to the board.
      await reset(id, { nodeKey: 'board' }).expect(200);
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.visit}`)).toEqual(['board:1', 'board:1']);
      expect((await tasks(id)).find((t) => t.nodeKey === 'intake' && t.visit === 2)?.status).toBe('Cancelled');
      // The node that is open: it opens again (visit 2).
      await reset(id, { nodeKey: 'board' }).expect(200);
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.visit}`)).toEqual(['board:2', 'board:2']);
      expect(await audits(id)).toHaveLength(3);
    });

    it('answers 422 for a node it cannot open, 409 for a stale version or a state that is not Running, 400 for a bad body; nothing written', async () => {
      const started = (await start('chain', 'RST-2').expect(201)).body;
      const id = started.id;
      await as('mia').post(`${RUNTIME}/instances/${id}/suspend`).send({}).expect(200);
      const before = await written();
      expectProblem(await reset(id, { nodeKey: 'intake' }), 409, 'Workflow.InvalidState');
      expectProblem(await reset(id, { nodeKey: 'intake', version: started.version }), 409, 'Workflow.ConcurrencyConflict');
      expectProblem(await reset(id, { nodeKey: 'size' }), 409, 'Workflow.InvalidState');
      expectProblem(await reset(id, {}), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);
      await as('mia').post(`${RUNTIME}/instances/${id}/resume`).send({}).expect(200);
      const unchanged = await written();
      for (const nodeKey of ['nowhere', 'size', 'start']) expectProblem(await reset(id, { nodeKey }), 422, 'Workflow.Runtime.NodeNotAllowed');
      expect(await written()).toEqual(unchanged);
      await as('mia').post(`${RUNTIME}/instances/${id}/terminate`).send({}).expect(200);
      expectProblem(await reset(id, { nodeKey: 'intake' }), 409, 'Workflow.InvalidState');
    });

    it('a reset and a vote on one instance at once: exactly one wins, the other is 409, and no update is lost', async () => {
      for (let i = 0; i < 5; i++) {
        const started = (await start('trio', `RST-RACE-${i}`).expect(201)).body;
        const anna = await taskOf(started.id, 'anna');
        const [resetting, voting] = await Promise.all([reset(started.id, { nodeKey: 'trio', version: started.version }), complete('anna', anna)]);
        expect([resetting.status, voting.status].sort()).toEqual([200, 409]);
        const instance = (await progress(started.id)).instance;
        expect(instance.version).toBe(started.version + 1);
        const annaNow = (await tasks(started.id)).find((t) => t.id === anna.id);
        if (resetting.status === 200) {
          expectProblem(voting, 409, 'Workflow.Task.NotPending');
          expect(annaNow?.status).toBe('Cancelled');
          expect((await pending(started.id)).map((t) => t.visit)).toEqual([2, 2, 2]);
          expect(await events('workflow.task.completed', started.id)).toBe(0);
          expect(await audits(started.id)).toHaveLength(1);
        } else {
          expectProblem(resetting, 409, 'Workflow.ConcurrencyConflict');
          expect(annaNow?.status).toBe('Approved');
          expect(await events('workflow.instance.reset', started.id)).toBe(0);
          expect(await audits(started.id)).toHaveLength(0);
        }
      }
    });
  });

  describe('transfer the applicant', () => {
    it('makes `to` the initiator: their seat at waiting `initiator` approvals passes to them, later ones resolve to them; audited', async () => {
      const started = (await start('applicant', 'APP-1').expect(201)).body;
      const id = started.id;
      const inaTask = await taskOf(id, 'ina');
      const res = await transferApplicant(id, { to: 'ivan', reason: 'left the firm', version: started.version }).expect(200);
      expect(res.body).toMatchObject({ initiator: 'ivan', version: started.version + 1, status: 'Running' });
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}`).sort()).toEqual(['confirm:ivan', 'confirm:otto']);
      expect((await tasks(id)).find((t) => t.id === inaTask.id)).toMatchObject({ status: 'Transferred', decidedBy: 'mia' });
      expect(await events('workflow.instance.applicant-transferred', id)).toBe(1);
      expect(await events('workflow.task.transferred', id)).toBe(1);
      const ivanTask = await taskOf(id, 'ivan');
      expect(await audits(id)).toEqual([
        expect.objectContaining({
          operation: 'transfer-applicant',
          subject: 'mia',
          reason: 'left the firm',
          before: expect.objectContaining({ initiator: 'ina' }),
          after: expect.objectContaining({ initiator: 'ivan', reassignedTasks: [ivanTask.id] }),
        }),
      ]);
      // The old applicant's own operations are gone; the new one's work.
      expectProblem(await as('ina').post(`${RUNTIME}/instances/${id}/priority`).send({ priority: 5 }), 403, 'Authorization.Denied');
      await as('ivan').post(`${RUNTIME}/instances/${id}/priority`).send({ priority: 5 }).expect(200);
      // A later `initiator` approval resolves to the new applicant.
      await complete('otto', await taskOf(id, 'otto')).expect(200);
      await complete('ivan', ivanTask).expect(200);
      await complete('otto', await taskOf(id, 'otto')).expect(200);
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}`)).toEqual(['ack:ivan']);
      await as('ivan').post(`${RUNTIME}/instances/${id}/withdraw`).send({}).expect(200);
    });

    it('a delegate’s task on the applicant’s seat returns to the new applicant', async () => {
      const id = (await start('applicant', 'APP-2').expect(201)).body.id;
      await as('ina')
        .post(`${RUNTIME}/tasks/${(await taskOf(id, 'ina')).id}/delegate`)
        .send({ to: 'lena' })
        .expect(200);
      await transferApplicant(id, { to: 'ivan' }).expect(200);
      const back = await complete('lena', await taskOf(id, 'lena')).expect(200);
      expect(back.body.returnedTask).toMatchObject({ assignee: 'ivan', nodeKey: 'confirm' });
    });

    it('refuses `to` = the applicant or a subject seated where the seat would pass (422), a stale version or an ended instance (409); nothing written', async () => {
      const started = (await start('applicant', 'APP-3').expect(201)).body;
      const id = started.id;
      await as('mia').post(`${RUNTIME}/instances/${id}/suspend`).send({}).expect(200);
      const before = await written();
      expectProblem(await transferApplicant(id, { to: 'ina' }), 422, 'Workflow.Runtime.OperationNotAllowed');
      expectProblem(await transferApplicant(id, { to: 'otto' }), 422, 'Workflow.Runtime.OperationNotAllowed');
      expectProblem(await transferApplicant(id, { to: 'ivan', version: started.version }), 409, 'Workflow.ConcurrencyConflict');
      expectProblem(await transferApplicant(id, { to: '' }), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);
      // Suspended is fine: the instance keeps waiting, for the new applicant.
      await transferApplicant(id, { to: 'ivan' }).expect(200);
      await as('mia').post(`${RUNTIME}/instances/${id}/cancel`).send({}).expect(200);
      expectProblem(await transferApplicant(id, { to: 'ina' }), 409, 'Workflow.InvalidState');
    });
  });

  describe('batch completion (proxy)', () => {
    it('approves on behalf of the assignees without deciding a node; each task gets its own result; audited per task', async () => {
      const trioId = (await start('trio', 'BAT-1').expect(201)).body.id;
      const eitherId = (await start('either', 'BAT-2').expect(201)).body.id;
      const foreign = (await as('alice', 'acme').post(`${RUNTIME}/instances`).send({ definitionKey: 'trio', businessKey: 'BAT-F' }).expect(201)).body.id;
      const foreignTask = (await as('alice', 'acme').get(`${RUNTIME}/instances/${foreign}/progress`).expect(200)).body.nodes[0].tasks[0];
      const [anna, ben, carl] = [await taskOf(trioId, 'anna'), await taskOf(trioId, 'ben'), await taskOf(trioId, 'carl')];
      const eitherCarl = await taskOf(eitherId, 'carl');
      const missing = randomUUID();
      const res = await batch({ taskIds: [anna.id, ben.id, carl.id, eitherCarl.id, foreignTask.id, missing], comment: 'on leave' }).expect(200);
      expect(res.body).toMatchObject({
        completed: 2,
        failed: 4,
        results: [
          { taskId: anna.id, outcome: 'completed', task: { status: 'Approved', assignee: 'anna', decidedBy: 'mia', comment: 'on leave' } },
          { taskId: ben.id, outcome: 'completed', task: { status: 'Approved', assignee: 'ben', decidedBy: 'mia' } },
          { taskId: carl.id, outcome: 'failed', status: 422, code: 'Workflow.Runtime.ProxyWouldDecide' },
          { taskId: eitherCarl.id, outcome: 'failed', status: 422, code: 'Workflow.Runtime.ProxyWouldDecide' },
          { taskId: foreignTask.id, outcome: 'failed', status: 404, code: 'NotFound' },
          { taskId: missing, outcome: 'failed', status: 404, code: 'NotFound' },
        ],
      });
      // The process did not move: carl's task is still open, the other tenant's task untouched.
      expect((await pending(trioId)).map((t) => t.assignee)).toEqual(['carl']);
      expect((await pending(eitherId)).map((t) => t.assignee).sort()).toEqual(['carl', 'dora']);
      expect(await n(`SELECT count(*)::int AS n FROM workflow.task WHERE id = $1 AND status = 'Pending'`, [foreignTask.id])).toBe(1);
      expect(await events('workflow.task.proxy-completed', trioId)).toBe(2);
      expect(await events('workflow.task.completed', trioId)).toBe(2);
      expect(await audits(trioId)).toEqual([
        expect.objectContaining({ operation: 'batch-complete', subject: 'mia', on_behalf_of: 'anna', task_id: anna.id, reason: 'on leave' }),
        expect.objectContaining({ operation: 'batch-complete', subject: 'mia', on_behalf_of: 'ben', task_id: ben.id }),
      ]);
      expect(await audits(eitherId)).toEqual([]);

      // Each vote counts once: the assignee's own vote is refused, a second proxy too.
      expectProblem(await complete('anna', anna), 409, 'Workflow.Task.NotPending');
      expect((await batch({ taskIds: [anna.id] }).expect(200)).body.results[0]).toMatchObject({
        outcome: 'failed',
        status: 409,
        code: 'Workflow.Task.NotPending',
      });
      // The assignee left decides, and the flow moves on.
      expect((await complete('carl', carl).expect(200)).body.nodeClosed).toBe(true);
      expect((await pending(trioId)).map((t) => t.assignee)).toEqual(['dora']);
    });

    it('refuses a delegate’s task and a Suspended instance’s task per task, writing nothing of either', async () => {
      const id = (await start('trio', 'BAT-3').expect(201)).body.id;
      await as('anna')
        .post(`${RUNTIME}/tasks/${(await taskOf(id, 'anna')).id}/delegate`)
        .send({ to: 'lena' })
        .expect(200);
      const suspended = (await start('trio', 'BAT-4').expect(201)).body.id;
      await as('mia').post(`${RUNTIME}/instances/${suspended}/suspend`).send({}).expect(200);
      const before = await written();
      const res = await batch({ taskIds: [(await taskOf(id, 'lena')).id, (await taskOf(suspended, 'ben')).id] }).expect(200);
      expect(res.body.results.map((r: { code: string }) => r.code)).toEqual(['Workflow.Runtime.OperationNotAllowed', 'Workflow.InvalidState']);
      expect(await written()).toEqual(before);
    });

    it('validates the ids: 1–100 distinct UUIDs', async () => {
      const before = await written();
      const id = randomUUID();
      for (const body of [
        { taskIds: [] },
        { taskIds: [id, id.toUpperCase()] },
        { taskIds: ['not-a-uuid'] },
        { taskIds: Array.from({ length: 101 }, () => randomUUID()) },
        { taskIds: [id], extra: 1 },
      ]) {
        expectProblem(await batch(body), 400, 'Validation.Failed');
      }
      expect(await written()).toEqual(before);
    });
  });

  it('denies all four to a caller without `workflow.instance.manage` (403) and writes nothing', async () => {
    const started = (await start('trio', 'DENY-1').expect(201)).body;
    const task = await taskOf(started.id, 'anna');
    const before = await written();
    for (const sub of ['nora', 'ina', 'anna']) {
      expectProblem(await startAt({ definitionKey: 'trio', businessKey: 'DENY-2', nodeKey: 'trio' }, sub), 403, 'Authorization.Denied');
      expectProblem(await reset(started.id, { nodeKey: 'trio' }, sub), 403, 'Authorization.Denied');
      expectProblem(await transferApplicant(started.id, { to: 'ivan' }, sub), 403, 'Authorization.Denied');
      expectProblem(await batch({ taskIds: [task.id] }, sub), 403, 'Authorization.Denied');
    }
    expect(await written()).toEqual(before);
  });

  it('answers another tenant’s instance id (and one that is not a UUID) with 404, writing nothing', async () => {
    const id = (await start('trio', 'TEN-1').expect(201)).body.id;
    const before = await written();
    expectProblem(await reset(id, { nodeKey: 'trio' }, 'alice', 'acme'), 404, 'NotFound');
    expectProblem(await transferApplicant(id, { to: 'bob' }, 'alice', 'acme'), 404, 'NotFound');
    expectProblem(await reset('not-a-uuid', { nodeKey: 'trio' }), 404, 'NotFound');
    expect(await written()).toEqual(before);
  });

  it('keeps the audit append-only: the store refuses to change or delete a row', async () => {
    const id = (await startAt({ definitionKey: 'trio', businessKey: 'AUD-1', nodeKey: 'after' }).expect(201)).body.id;
    await expect(sql.query(`UPDATE workflow.admin_audit SET reason = 'edited' WHERE instance_id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(sql.query(`DELETE FROM workflow.admin_audit WHERE instance_id = $1`, [id])).rejects.toThrow(/append-only/);
    expect(await audits(id)).toHaveLength(1);
  });

  it('refuses a reset with 403 Feature.Disabled while `workflow.runtime` is off for the tenant, nothing written', async () => {
    const toggle = (enabled: boolean) =>
      platform.as('gus', 'globex').put('/api/authorization/features/workflow.runtime').send({ enabled, scope: 'tenant' }).expect(200);
    const id = (await as('gus', 'globex').post(`${RUNTIME}/instances`).send({ definitionKey: 'chain', businessKey: 'FEAT-1' }).expect(201)).body.id;
    await toggle(false);
    try {
      const off = await eventually(
        () => reset(id, { nodeKey: 'board' }, 'gus', 'globex'),
        (res) => res.status === 403,
        20_000,
      );
      expectProblem(off, 403, 'Feature.Disabled');
      const before = await written();
      expectProblem(await reset(id, { nodeKey: 'intake' }, 'gus', 'globex'), 403, 'Feature.Disabled');
      expect(await written()).toEqual(before);
    } finally {
      await toggle(true);
    }
    const on = await eventually(
      () => reset(id, { nodeKey: 'board' }, 'gus', 'globex'),
      (res) => res.status === 200,
      20_000,
    );
    expect((await progress(on.body.id, 'globex')).nodes.find((node: { key: string }) => node.key === 'board').state).toBe('waiting');
  });
});

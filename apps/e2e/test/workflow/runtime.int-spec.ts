import { DataSource } from 'typeorm';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';
import { approval, DEFS, RUNTIME, TASKS } from '../support/workflow-routes';

const DESIGN = ['workflow.definition.view', 'workflow.definition.update', 'workflow.definition.manage'];
const START = ['workflow.instance.create', 'workflow.instance.view', 'workflow.task.view'];
const MANAGE = ['workflow.instance.manage', 'workflow.instance.view'];
const APPROVE = ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject', 'workflow.instance.view'];

/** Sequential lena → otto, then anna and ben (all), then carl or dora (any), then finn when amount > 1000. */
const contract = {
  name: 'Contract approval',
  nodes: [
    approval('legal', ['lena', 'otto']),
    approval('partners', ['anna', 'ben'], { mode: 'all' }),
    approval('office', ['carl', 'dora'], { mode: 'any' }),
    {
      kind: 'exclusive',
      key: 'amount',
      branches: [
        { key: 'large', condition: { '>': [{ var: 'amount' }, 1000] }, nodes: [approval('finance', ['finn'])] },
        { key: 'small', default: true, nodes: [{ kind: 'cc', key: 'notify', recipients: [{ kind: 'user', subjects: ['ina'] }] }] },
      ],
    },
  ],
};
/** Two parallel branches joined before `final`, which may send the instance back to `intake`. */
const parallelBack = {
  name: 'Parallel with return',
  nodes: [
    approval('intake', ['lena']),
    { kind: 'parallel', key: 'split', branches: [{ nodes: [approval('left', ['anna'])] }, { nodes: [approval('right', ['ben'])] }] },
    approval('final', ['otto'], { operations: { rejectTargets: ['intake'] } }),
  ],
};
/** One approval that may send the instance back to its initiator. */
const returnable = { name: 'Returnable', nodes: [approval('review', ['otto'], { operations: { rejectTargets: 'start' } })] };
const transferable = { name: 'Transferable', nodes: [approval('pair', ['anna', 'ben'], { mode: 'all', operations: { transfer: true } })] };
const delegable = { name: 'Delegable', nodes: [approval('pair', ['anna', 'ben'], { mode: 'all', operations: { delegate: true } })] };
const signable = {
  name: 'Signable',
  nodes: [
    approval('chain', ['anna', 'ben'], { operations: { addSigner: true } }),
    approval('board', ['carl', 'dora'], { mode: 'all', operations: { addSigner: true } }),
  ],
};
/** Every member of the tenant role `workflow-approver` (resolved through policy-management when the node is reached); the first vote decides. */
const byRole = { name: 'By role', nodes: [{ kind: 'approval', key: 'any-approver', mode: 'any', assignees: [{ kind: 'role', role: 'workflow-approver' }] }] };
const raceAll = { name: 'Race all', nodes: [approval('both', ['anna', 'ben'], { mode: 'all' })] };
const raceAny = { name: 'Race any', nodes: [approval('either', ['carl', 'dora'], { mode: 'any' })] };
const solo = { name: 'Solo', nodes: [approval('solo', ['pia'])] };
/** Named nodes, one nested in a gateway branch, all for tom, who holds the task permissions only. */
const named = {
  name: 'Named steps',
  nodes: [
    approval('check', ['tom'], { name: 'Legal check', operations: { transfer: true } }),
    {
      kind: 'exclusive',
      key: 'route',
      branches: [
        { key: 'big', condition: { '>': [{ var: 'amount' }, 10] }, nodes: [approval('boss', ['finn'])] },
        { key: 'small', default: true, nodes: [approval('deep', ['tom'], { name: 'Deep step' })] },
      ],
    },
  ],
};

interface Task {
  id: string;
  nodeKey: string;
  assignee: string;
  status: string;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: runtime over HTTP', () => {
  const platform = new OperationsTestPlatform('wfrun', { env: { USER_POLICY_LIMIT: '100000' } });
  let sql: DataSource;
  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));
  const n = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params))[0].n);
  const events = (type: string, instanceId: string) =>
    n(`SELECT count(*)::int AS n FROM workflow.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'instanceId' = $2`, [type, instanceId]);
  /** Everything a runtime write can leave behind. */
  const written = async () => ({
    instances: await n(`SELECT count(*)::int AS n FROM workflow.instance`),
    tasks: await n(`SELECT count(*)::int AS n FROM workflow.task`),
    decided: await n(`SELECT count(*)::int AS n FROM workflow.task WHERE status <> 'Pending'`),
    read: await n(`SELECT count(*)::int AS n FROM workflow.task WHERE read_at IS NOT NULL`),
    outbox: await n(`SELECT count(*)::int AS n FROM workflow.outbox_message`),
  });
  const pending = async (instanceId: string): Promise<Task[]> =>
    (await as('ina').get(`${RUNTIME}/instances/${instanceId}/progress`).expect(200)).body.nodes.flatMap((node: { tasks: Task[] }) =>
      node.tasks.filter((t) => t.status === 'Pending'),
    );
  const taskOf = async (instanceId: string, assignee: string): Promise<Task> => {
    const task = (await pending(instanceId)).find((t) => t.assignee === assignee);
    if (!task) throw new Error(`no pending task for ${assignee} in ${instanceId}`);
    return task;
  };
  const complete = (sub: string, task: Task, body: object = {}) => as(sub).post(`${RUNTIME}/tasks/${task.id}/complete`).send(body);
  const start = (key: string, businessKey: string, variables: object = {}, sub = 'ina', tenantId = 'default') =>
    as(sub, tenantId).post(`${RUNTIME}/instances`).send({ definitionKey: key, businessKey, variables });

  beforeAll(async () => {
    await platform.start();
    sql = platform.service('workflow-engine').app.get(DataSource);
    await platform.grantRole('default', 'wanda', 'workflow-designer', DESIGN);
    await platform.grantRole('default', 'ina', 'workflow-starter', [...START, 'workflow.instance.update']);
    await platform.grantRole('default', 'ivan', 'workflow-starter-2', [...START, 'workflow.instance.update']);
    await platform.grantRole('default', 'mia', 'workflow-admin', MANAGE);
    for (const sub of ['lena', 'otto', 'anna', 'ben', 'carl', 'dora', 'finn']) await platform.grantRole('default', sub, 'workflow-approver', APPROVE);
    await platform.grantRole('default', 'nora', 'case-reader', ['cases.case.view']);
    await platform.grantRole('default', 'tom', 'task-approver', ['workflow.task.view', 'workflow.task.approve']);
    // pia approves through a role whose DataScope is `office`, and she belongs to no office: her lists reach no rows.
    await platform.grantRole('default', 'pia', 'workflow-approver-office', APPROVE);
    await platform.sql.query(`UPDATE authz.role SET data_scope = 'office' WHERE tenant_id = 'default' AND name = 'workflow-approver-office'`);
    await platform.grantRole('acme', 'alice', 'workflow-all', [...DESIGN, ...START, ...APPROVE]);
    await platform.seedTenantAdmin('globex', 'gus');
    for (const [key, definition] of Object.entries({
      contract,
      'race-all': raceAll,
      'race-any': raceAny,
      'parallel-back': parallelBack,
      returnable,
      transferable,
      delegable,
      signable,
      'by-role': byRole,
      solo,
      named,
    })) {
      await as('wanda').post(`${DEFS}/${key}/deployments`).send({ definition }).expect(201);
    }
    await as('alice', 'acme').post(`${DEFS}/contract/deployments`).send({ definition: contract }).expect(201);
    await as('gus', 'globex').post(`${DEFS}/race-any/deployments`).send({ definition: raceAny }).expect(201);
  }, 120_000);
  afterAll(() => platform.stop());

  it('walks sequential, all, any and the exclusive gateway through to Approved, with the events of each step', async () => {
    const started = await start('contract', 'NDA-1', { amount: 5000 }).expect(201);
    const id = started.body.id;
    expect(started.body).toMatchObject({ definitionKey: 'contract', businessKey: 'NDA-1', initiator: 'ina', status: 'Running', version: 2 });
    expect(started.headers['ratelimit-policy']).toMatch(/^"userPolicy";q=\d+/);
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['lena']);
    expect(await events('workflow.instance.started', id)).toBe(1);

    // sequential: otto's task opens only once lena approved.
    const first = await complete('lena', await taskOf(id, 'lena'), { comment: 'fine' }).expect(200);
    expect(first.body).toMatchObject({ task: { status: 'Approved', comment: 'fine', decidedBy: 'lena' }, nodeClosed: false });
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['otto']);
    expect((await complete('otto', await taskOf(id, 'otto')).expect(200)).body.nodeClosed).toBe(true);
    // all: both partners.
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['anna', 'ben']);
    expect((await complete('anna', await taskOf(id, 'anna')).expect(200)).body.nodeClosed).toBe(false);
    expect((await complete('ben', await taskOf(id, 'ben')).expect(200)).body.nodeClosed).toBe(true);
    // any: the first of carl and dora decides, the other task is cancelled.
    const dora = await taskOf(id, 'dora');
    expect((await complete('carl', await taskOf(id, 'carl')).expect(200)).body.nodeClosed).toBe(true);
    expectProblem(await complete('dora', dora), 409, 'Workflow.Task.NotPending');
    // exclusive: amount 5000 goes to finance; completing it with variables ends the instance.
    const done = await complete('finn', await taskOf(id, 'finn'), { variables: { signed: true } }).expect(200);
    expect(done.body.instance).toMatchObject({ status: 'Approved', variables: { amount: 5000, signed: true }, endedAt: expect.any(String) });

    const progress = (await as('ina').get(`${RUNTIME}/instances/${id}/progress`).expect(200)).body;
    expect(progress.nodes.map((node: { key: string; state: string }) => `${node.key}:${node.state}`)).toEqual([
      'legal:passed',
      'partners:passed',
      'office:passed',
      'amount:passed',
      'finance:passed',
      'notify:not-reached',
    ]);
    expect(await events('workflow.task.created', id)).toBe(7);
    expect(await events('workflow.task.completed', id)).toBe(6);
    expect(await events('workflow.instance.completed', id)).toBe(1);
    expect((await as('finn').get(`${TASKS}/done`).expect(200)).body.items.map((t: Task) => t.nodeKey)).toContain('finance');
  });

  it('takes the default branch for a small amount (cc, no task) and ends Approved after the any node', async () => {
    const id = (await start('contract', 'NDA-small', { amount: 10 }).expect(201)).body.id;
    for (const sub of ['lena', 'otto', 'anna', 'ben']) await complete(sub, await taskOf(id, sub)).expect(200);
    const last = await complete('dora', await taskOf(id, 'dora')).expect(200);
    expect(last.body.instance.status).toBe('Approved');
    expect(await events('workflow.cc.notified', id)).toBe(1);
  });

  it('a rejection without a target rejects the instance and cancels its open tasks', async () => {
    const id = (await start('race-all', 'REJ-1').expect(201)).body.id;
    const rejected = await as('anna')
      .post(`${RUNTIME}/tasks/${(await taskOf(id, 'anna')).id}/reject`)
      .send({ comment: 'no' })
      .expect(200);
    expect(rejected.body).toMatchObject({ task: { status: 'Rejected', comment: 'no' }, nodeClosed: true, instance: { status: 'Rejected' } });
    expect(await pending(id)).toEqual([]);
    expect(await n(`SELECT count(*)::int AS n FROM workflow.task WHERE instance_id = $1 AND status = 'Cancelled'`, [id])).toBe(1);
    expect(await events('workflow.instance.completed', id)).toBe(1);
    // A target the node does not allow is refused, nothing written.
    const other = (await start('race-all', 'REJ-2').expect(201)).body.id;
    const before = await written();
    const res = await as('anna')
      .post(`${RUNTIME}/tasks/${(await taskOf(other, 'anna')).id}/reject`)
      .send({ target: 'nowhere' });
    expectProblem(res, 422, 'Workflow.Runtime.RejectTargetNotAllowed');
    expect(await written()).toEqual(before);
  });

  it('joins parallel branches only when both approved, and a rejection to an allowed target reopens it (visit 2)', async () => {
    const id = (await start('parallel-back', 'PAR-1').expect(201)).body.id;
    await complete('lena', await taskOf(id, 'lena')).expect(200);
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['anna', 'ben']);
    expect((await complete('anna', await taskOf(id, 'anna')).expect(200)).body.nodeClosed).toBe(true);
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['ben']);
    await complete('ben', await taskOf(id, 'ben')).expect(200);
    const back = await as('otto')
      .post(`${RUNTIME}/tasks/${(await taskOf(id, 'otto')).id}/reject`)
      .send({ target: 'intake', comment: 'missing annex' })
      .expect(200);
    expect(back.body).toMatchObject({ nodeClosed: true, instance: { status: 'Running' } });
    expect(await pending(id)).toEqual([expect.objectContaining({ nodeKey: 'intake', assignee: 'lena', visit: 2 })]);
    expectProblem(
      await as('otto')
        .post(`${RUNTIME}/tasks/${(await taskOf(id, 'lena')).id}/reject`)
        .send({ target: 'start' }),
      403,
      'Authorization.Denied',
    );
  });

  it('a rejection to `start` returns the instance to its initiator; their resubmit (with variables) opens the first node again', async () => {
    const id = (await start('returnable', 'RET-1', { draft: 1 }).expect(201)).body.id;
    expectProblem(await as('ina').post(`${RUNTIME}/instances/${id}/resubmit`).send({}), 409, 'Workflow.InvalidState');
    const back = await as('otto')
      .post(`${RUNTIME}/tasks/${(await taskOf(id, 'otto')).id}/reject`)
      .send({ target: 'start', comment: 'sign page 3' })
      .expect(200);
    expect(back.body.instance.status).toBe('Running');
    const progress = (await as('ina').get(`${RUNTIME}/instances/${id}/progress`).expect(200)).body;
    expect(progress.returnedToInitiator).toBe(true);
    expect(await pending(id)).toEqual([]);
    expect(await events('workflow.instance.returned', id)).toBe(1);
    expectProblem(await as('ivan').post(`${RUNTIME}/instances/${id}/resubmit`).send({}), 403, 'Authorization.Denied');
    const resubmitted = await as('ina')
      .post(`${RUNTIME}/instances/${id}/resubmit`)
      .send({ variables: { draft: 2 } })
      .expect(200);
    expect(resubmitted.body).toMatchObject({ status: 'Running', variables: { draft: 2 } });
    expect(await pending(id)).toEqual([expect.objectContaining({ nodeKey: 'review', assignee: 'otto', visit: 2 })]);
    expect(await events('workflow.instance.resubmitted', id)).toBe(1);
    const approved = await complete('otto', await taskOf(id, 'otto')).expect(200);
    expect(approved.body.instance.status).toBe('Approved');
  });

  it('transfer: the assignee hands the task on where the node allows it; the new assignee’s vote counts on the same seat', async () => {
    const id = (await start('transferable', 'TR-1').expect(201)).body.id;
    const anna = await taskOf(id, 'anna');
    const transfer = (sub: string, task: Task, to: string) => as(sub).post(`${RUNTIME}/tasks/${task.id}/transfer`).send({ to });
    expectProblem(await transfer('ben', anna, 'carl'), 403, 'Authorization.Denied');
    expectProblem(await transfer('anna', anna, 'ben'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await transfer('anna', anna, 'anna'), 422, 'Workflow.Runtime.OperationNotAllowed');
    const moved = await transfer('anna', anna, 'carl').expect(200);
    expect(moved.body).toMatchObject({ assignee: 'carl', status: 'Pending', nodeKey: 'pair' });
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['ben', 'carl']);
    expectProblem(await complete('anna', anna), 409, 'Workflow.Task.NotPending');
    await complete('carl', await taskOf(id, 'carl')).expect(200);
    expect((await complete('ben', await taskOf(id, 'ben')).expect(200)).body.instance.status).toBe('Approved');
    expect(await events('workflow.task.transferred', id)).toBe(1);
    // A node without `operations.transfer` refuses it, nothing written.
    const other = (await start('race-all', 'TR-2').expect(201)).body.id;
    const before = await written();
    expectProblem(await transfer('anna', await taskOf(other, 'anna'), 'carl'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expect(await written()).toEqual(before);
  });

  it('delegate: the delegate acts, the task comes back Pending to its owner (no vote), and the owner decides', async () => {
    const id = (await start('delegable', 'DEL-1').expect(201)).body.id;
    const anna = await taskOf(id, 'anna');
    const delegate = (sub: string, task: Task, to: string) => as(sub).post(`${RUNTIME}/tasks/${task.id}/delegate`).send({ to, comment: 'please check' });
    expectProblem(await delegate('ben', anna, 'carl'), 403, 'Authorization.Denied');
    expectProblem(await delegate('anna', anna, 'ben'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await delegate('anna', anna, 'anna'), 422, 'Workflow.Runtime.OperationNotAllowed');
    const moved = await delegate('anna', anna, 'carl').expect(200);
    expect(moved.body).toMatchObject({ assignee: 'carl', owner: 'anna', status: 'Pending', nodeKey: 'pair' });
    expect((await as('anna').get(`${TASKS}/${anna.id}`).expect(200)).body).toMatchObject({ status: 'Delegated', decidedBy: 'anna' });
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['ben', 'carl']);
    expectProblem(await complete('anna', anna), 409, 'Workflow.Task.NotPending');
    // The delegate can neither hand it on nor send the instance anywhere: it goes back to anna.
    const carl = await taskOf(id, 'carl');
    expectProblem(await delegate('carl', carl, 'dora'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await delegate('anna', carl, 'dora'), 403, 'Authorization.Denied');
    expect(await events('workflow.task.delegated', id)).toBe(1);

    // ben approves; carl's approval would have closed an `all` node if it counted as anna's vote.
    await complete('ben', await taskOf(id, 'ben')).expect(200);
    const back = await complete('carl', carl, { comment: 'looks fine' }).expect(200);
    expect(back.body).toMatchObject({
      task: { status: 'Approved', assignee: 'carl', owner: 'anna', comment: 'looks fine' },
      nodeClosed: false,
      instance: { status: 'Running' },
      returnedTask: { assignee: 'anna', owner: null, status: 'Pending', nodeKey: 'pair' },
    });
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['anna']);
    expect(await events('workflow.task.returned', id)).toBe(1);
    // The owner decides: her approval closes the node.
    const done = await complete('anna', await taskOf(id, 'anna')).expect(200);
    expect(done.body).toMatchObject({ nodeClosed: true, instance: { status: 'Approved' } });

    // A delegate's rejection is advice too: back to the owner, who may still approve.
    const id2 = (await start('delegable', 'DEL-2').expect(201)).body.id;
    await delegate('anna', await taskOf(id2, 'anna'), 'dora').expect(200);
    expect(
      (
        await as('dora')
          .post(`${RUNTIME}/tasks/${(await taskOf(id2, 'dora')).id}/reject`)
          .send({ comment: 'risky' })
          .expect(200)
      ).body,
    ).toMatchObject({
      nodeClosed: false,
      instance: { status: 'Running' },
      returnedTask: { assignee: 'anna' },
    });
    await complete('anna', await taskOf(id2, 'anna')).expect(200);
    expect((await complete('ben', await taskOf(id2, 'ben')).expect(200)).body.instance.status).toBe('Approved');

    // A node without `operations.delegate` refuses it, nothing written.
    const other = (await start('race-all', 'DEL-3').expect(201)).body.id;
    const before = await written();
    expectProblem(await delegate('anna', await taskOf(other, 'anna'), 'carl'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expect(await written()).toEqual(before);
  });

  it('add-participant before (sequential): the new signer approves first, then the caller’s seat opens again', async () => {
    const id = (await start('signable', 'ADD-B').expect(201)).body.id;
    const anna = await taskOf(id, 'anna');
    const add = (sub: string, task: Task, subjects: string[], position: string) =>
      as(sub).post(`${RUNTIME}/tasks/${task.id}/add-participant`).send({ subjects, position });
    expectProblem(await add('ben', anna, ['finn'], 'before'), 403, 'Authorization.Denied');
    expectProblem(await add('anna', anna, ['ben'], 'before'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await add('anna', anna, ['anna'], 'before'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await add('anna', anna, ['finn'], 'parallel'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await add('anna', anna, [], 'before'), 400, 'Validation.Failed');
    const added = await add('anna', anna, ['finn'], 'before').expect(200);
    expect(added.body).toMatchObject({ task: { status: 'Delegated' }, opened: [{ assignee: 'finn', status: 'Pending' }] });
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['finn']);
    expect((await complete('finn', await taskOf(id, 'finn')).expect(200)).body.nodeClosed).toBe(false);
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['anna']);
    await complete('anna', await taskOf(id, 'anna')).expect(200);
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['ben']);
    expect((await complete('ben', await taskOf(id, 'ben')).expect(200)).body.nodeClosed).toBe(true);
    expect(await events('workflow.task.participants-added', id)).toBe(1);
  });

  it('add-participant after (sequential): the caller’s task is approved and the new signers follow before the node closes', async () => {
    const id = (await start('signable', 'ADD-A').expect(201)).body.id;
    const anna = await taskOf(id, 'anna');
    const added = await as('anna')
      .post(`${RUNTIME}/tasks/${anna.id}/add-participant`)
      .send({ subjects: ['finn', 'lena'], position: 'after', comment: 'finance and legal too' })
      .expect(200);
    expect(added.body).toMatchObject({ task: { status: 'Approved', decidedBy: 'anna' }, opened: [{ assignee: 'finn' }] });
    for (const sub of ['finn', 'lena']) {
      expect((await pending(id)).map((t) => t.assignee)).toEqual([sub]);
      expect((await complete(sub, await taskOf(id, sub)).expect(200)).body.nodeClosed).toBe(false);
    }
    expect((await pending(id)).map((t) => t.assignee)).toEqual(['ben']);
    expect((await complete('ben', await taskOf(id, 'ben')).expect(200)).body.nodeClosed).toBe(true);
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['carl', 'dora']);
  });

  it('add-participant parallel (all): the new signers’ votes count by the node’s mode; refusals and denials write nothing', async () => {
    const id = (await start('signable', 'ADD-P').expect(201)).body.id;
    await complete('anna', await taskOf(id, 'anna')).expect(200);
    await complete('ben', await taskOf(id, 'ben')).expect(200);
    const carl = await taskOf(id, 'carl');
    const before = await written();
    const add = (sub: string, subjects: string[], position: string) => as(sub).post(`${RUNTIME}/tasks/${carl.id}/add-participant`).send({ subjects, position });
    expectProblem(await add('carl', ['finn'], 'before'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await add('carl', ['dora'], 'parallel'), 422, 'Workflow.Runtime.OperationNotAllowed');
    expectProblem(await add('dora', ['finn'], 'parallel'), 403, 'Authorization.Denied');
    expectProblem(await add('nora', ['finn'], 'parallel'), 403, 'Authorization.Denied');
    expect(await written()).toEqual(before);
    const added = await add('carl', ['finn'], 'parallel').expect(200);
    expect(added.body).toMatchObject({ task: { status: 'Pending', assignee: 'carl' }, opened: [{ assignee: 'finn', status: 'Pending' }] });
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['carl', 'dora', 'finn']);
    expect((await complete('carl', carl).expect(200)).body.nodeClosed).toBe(false);
    expect((await complete('dora', await taskOf(id, 'dora')).expect(200)).body.nodeClosed).toBe(false);
    expect((await complete('finn', await taskOf(id, 'finn')).expect(200)).body.instance.status).toBe('Approved');
    // A node without `operations.addSigner` refuses it, nothing written.
    const other = (await start('race-all', 'ADD-N').expect(201)).body.id;
    const unchanged = await written();
    expectProblem(
      await as('anna')
        .post(`${RUNTIME}/tasks/${(await taskOf(other, 'anna')).id}/add-participant`)
        .send({ subjects: ['finn'], position: 'parallel' }),
      422,
      'Workflow.Runtime.OperationNotAllowed',
    );
    expect(await written()).toEqual(unchanged);
  });

  it('opens one task per member of a role assignee (policy-management’s role members), and the first vote decides', async () => {
    const id = (await start('by-role', 'ROLE-1').expect(201)).body.id;
    expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['anna', 'ben', 'carl', 'dora', 'finn', 'lena', 'otto']);
    expect((await complete('finn', await taskOf(id, 'finn')).expect(200)).body.instance.status).toBe('Approved');
    expect(await pending(id)).toEqual([]);
  });

  it('starts idempotently: the same business key answers the same instance with 200, also under concurrent starts', async () => {
    const first = await start('race-any', 'CASE-42', { a: 1 }).expect(201);
    const again = await start('race-any', 'CASE-42', { a: 2 }).expect(200);
    expect(again.body).toEqual(first.body);
    const racing = await Promise.all([start('race-any', 'CASE-43'), start('race-any', 'CASE-43'), start('race-any', 'CASE-43')]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(racing.map((r) => r.body.id)).size).toBe(1);
    expect(await n(`SELECT count(*)::int AS n FROM workflow.task WHERE instance_id = $1`, [racing[0]?.body.id])).toBe(2);
    expect(await events('workflow.instance.started', racing[0]?.body.id)).toBe(1);
  });

  it('two approvers completing at once close an `all` node once and an `any` node once; the `any` loser gets 409, never a 5xx', async () => {
    for (let i = 0; i < 5; i++) {
      const all = (await start('race-all', `RACE-ALL-${i}`).expect(201)).body.id;
      const [a, b] = await Promise.all([complete('anna', await taskOf(all, 'anna')), complete('ben', await taskOf(all, 'ben'))]);
      expect([a?.status, b?.status]).toEqual([200, 200]);
      expect([a?.body.nodeClosed, b?.body.nodeClosed].filter(Boolean)).toHaveLength(1);
      expect(await events('workflow.instance.completed', all)).toBe(1);
      expect((await as('ina').get(`${RUNTIME}/instances/${all}/progress`).expect(200)).body.instance.status).toBe('Approved');

      const any = (await start('race-any', `RACE-ANY-${i}`).expect(201)).body.id;
      const [carl, dora] = [await taskOf(any, 'carl'), await taskOf(any, 'dora')];
      const answers = await Promise.all([complete('carl', carl), complete('dora', dora)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const loser = answers.find((r) => r.status === 409);
      if (loser) {
        expectProblem(loser, 409, 'Workflow.Task.NotPending');
        expect(loser.body).toMatchObject({ title: expect.any(String), detail: expect.stringContaining('Pending') });
      }
      expect(await n(`SELECT count(*)::int AS n FROM workflow.task WHERE instance_id = $1 AND status = 'Approved'`, [any])).toBe(1);
      expect(await events('workflow.instance.completed', any)).toBe(1);
    }
  });

  it('the todo list and its count agree, and mark-read keeps the first read time', async () => {
    const id = (await start('race-all', 'TODO-1').expect(201)).body.id;
    const list = (await as('ben').get(`${TASKS}/todo?pageSize=2`).expect(200)).body;
    const count = (await as('ben').get(`${TASKS}/todo/count`).expect(200)).body.count;
    expect(count).toBe(list.totalCount);
    expect(count).toBe(await n(`SELECT count(*)::int AS n FROM workflow.task WHERE tenant_id = 'default' AND assignee = 'ben' AND status = 'Pending'`));
    const task = await taskOf(id, 'ben');
    const read = await as('ben').post(`${TASKS}/${task.id}/mark-read`).expect(200);
    expect(read.body.readAt).toEqual(expect.any(String));
    const again = await as('ben').post(`${TASKS}/${task.id}/mark-read`).expect(200);
    expect(again.body.readAt).toBe(read.body.readAt);
    expect((await as('ben').get(`${TASKS}/${task.id}`).expect(200)).body).toMatchObject({ id: task.id, businessKey: 'TODO-1', instanceStatus: 'Running' });
    // Someone else's task in the same tenant: the permission is there, the task is not theirs.
    expectProblem(await as('anna').get(`${TASKS}/${task.id}`), 403, 'Authorization.Denied');
    expectProblem(await complete('anna', task), 403, 'Authorization.Denied');
  });

  it('inbox rows carry the node’s and the definition’s names and the version; an assignee reads the progress of their task’s instance', async () => {
    const id = (await start('named', 'NAMED-1', { amount: 1 }).expect(201)).body.id;
    const todo = (await as('tom').get(`${TASKS}/todo`).expect(200)).body.items;
    const check = todo.find((t: { instanceId: string }) => t.instanceId === id);
    expect(check).toMatchObject({ nodeKey: 'check', nodeName: 'Legal check', definitionKey: 'named', definitionName: 'Named steps', definitionVersion: 1 });
    expect((await as('tom').get(`${TASKS}/${check.id}`).expect(200)).body).toMatchObject({ nodeName: 'Legal check', definitionVersion: 1 });
    // tom holds no workflow.instance.view: the instance route refuses him, his task's progress does not.
    expectProblem(await as('tom').get(`${RUNTIME}/instances/${id}/progress`), 403, 'Authorization.Denied');
    const before = await written();
    const progress = (await as('tom').get(`${TASKS}/${check.id}/progress`).expect(200)).body;
    expect(progress.instance).toMatchObject({ id, status: 'Running' });
    expect(progress.definitionVersion).toBe(1);
    expect(progress.nodes.map((n: { key: string; state: string }) => [n.key, n.state])).toEqual([
      ['check', 'waiting'],
      ['route', 'not-reached'],
      ['boss', 'not-reached'],
      ['deep', 'not-reached'],
    ]);
    // The outline draws the graph and offers the actions; who is picked stays out.
    expect(progress.definition).toEqual({
      name: 'Named steps',
      variables: [],
      nodes: [
        { key: 'check', kind: 'approval', name: 'Legal check', mode: 'sequential', operations: { transfer: true } },
        {
          key: 'route',
          kind: 'exclusive',
          branches: [
            { key: 'big', condition: { '>': [{ var: 'amount' }, 10] }, nodes: [{ key: 'boss', kind: 'approval', mode: 'sequential' }] },
            { key: 'small', default: true, nodes: [{ key: 'deep', kind: 'approval', name: 'Deep step', mode: 'sequential' }] },
          ],
        },
      ],
    });
    expect(await written()).toEqual(before);
    // Not tom's task, no permission, another tenant.
    expectProblem(await as('anna').get(`${TASKS}/${check.id}/progress`), 403, 'Authorization.Denied');
    expectProblem(await as('nora').get(`${TASKS}/${check.id}/progress`), 403, 'Authorization.Denied');
    expectProblem(await as('alice', 'acme').get(`${TASKS}/${check.id}/progress`), 404, 'NotFound');
    // The nested node is named in the inbox too, and the decided task in the done list.
    await complete('tom', check).expect(200);
    const deep = (await as('tom').get(`${TASKS}/todo`).expect(200)).body.items.find((t: { instanceId: string }) => t.instanceId === id);
    expect(deep).toMatchObject({ nodeKey: 'deep', nodeName: 'Deep step', definitionName: 'Named steps' });
    const done = (await as('tom').get(`${TASKS}/done`).expect(200)).body.items.find((t: { id: string }) => t.id === check.id);
    expect(done).toMatchObject({ nodeName: 'Legal check', definitionVersion: 1, status: 'Approved' });
    // He still reads the progress of the decided task.
    const after = (await as('tom').get(`${TASKS}/${check.id}/progress`).expect(200)).body;
    expect(after.nodes.find((n: { key: string }) => n.key === 'deep').state).toBe('waiting');
  });

  it('applies the DataScope of the caller’s permit to the todo list and its count alike (office scope without offices: no rows)', async () => {
    const id = (await start('solo', 'SCOPE-1').expect(201)).body.id;
    const task = await taskOf(id, 'pia');
    expect(await n(`SELECT count(*)::int AS n FROM workflow.task WHERE tenant_id = 'default' AND assignee = 'pia' AND status = 'Pending'`)).toBe(1);
    const list = (await as('pia').get(`${TASKS}/todo`).expect(200)).body;
    expect(list).toMatchObject({ items: [], totalCount: 0 });
    expect((await as('pia').get(`${TASKS}/todo/count`).expect(200)).body.count).toBe(0);
    // The scope narrows lists only: the task itself is hers to read and decide.
    expect((await as('pia').get(`${TASKS}/${task.id}`).expect(200)).body).toMatchObject({ id: task.id, assignee: 'pia' });
    expect((await complete('pia', task).expect(200)).body.instance.status).toBe('Approved');
  });

  it('another tenant’s task and instance ids are 404, and so is an id that is not a UUID', async () => {
    const id = (await start('race-all', 'TENANT-1').expect(201)).body.id;
    const task = await taskOf(id, 'anna');
    const before = await written();
    expectProblem(await as('alice', 'acme').get(`${TASKS}/${task.id}`), 404, 'NotFound');
    expectProblem(await as('alice', 'acme').post(`${RUNTIME}/tasks/${task.id}/complete`).send({}), 404, 'NotFound');
    expectProblem(await as('alice', 'acme').post(`${TASKS}/${task.id}/mark-read`), 404, 'NotFound');
    expectProblem(await as('alice', 'acme').get(`${RUNTIME}/instances/${id}/progress`), 404, 'NotFound');
    expectProblem(await as('anna').get(`${TASKS}/not-a-uuid`), 404, 'NotFound');
    expect(await written()).toEqual(before);
  });

  it('denies every route to a caller without the permission (403) and writes nothing', async () => {
    const id = (await start('race-all', 'DENY-1').expect(201)).body.id;
    const task = await taskOf(id, 'anna');
    const before = await written();
    const nora = as('nora');
    for (const res of [
      await nora.post(`${RUNTIME}/instances`).send({ definitionKey: 'race-all', businessKey: 'DENY-2' }),
      await nora.get(`${RUNTIME}/instances/${id}/progress`),
      await nora.post(`${RUNTIME}/tasks/${task.id}/complete`).send({}),
      await nora.post(`${RUNTIME}/tasks/${task.id}/reject`).send({}),
      await nora.post(`${RUNTIME}/tasks/${task.id}/transfer`).send({ to: 'carl' }),
      await nora.post(`${RUNTIME}/tasks/${task.id}/delegate`).send({ to: 'carl' }),
      await nora.post(`${RUNTIME}/tasks/${task.id}/add-participant`).send({ subjects: ['carl'], position: 'parallel' }),
      await nora.get(`${TASKS}/todo`),
      await nora.get(`${TASKS}/todo/count`),
      await nora.get(`${TASKS}/done`),
      await nora.get(`${TASKS}/${task.id}`),
      await nora.get(`${TASKS}/${task.id}/progress`),
      await nora.post(`${TASKS}/${task.id}/mark-read`),
    ]) {
      expectProblem(res, 403, 'Authorization.Denied');
    }
    // The starter may start but not approve.
    expectProblem(await as('ina').post(`${RUNTIME}/tasks/${task.id}/complete`).send({}), 403, 'Authorization.Denied');
    expect(await written()).toEqual(before);
  });

  describe('instance operations', () => {
    const op = (sub: string, id: string, operation: string, body: object = {}) => as(sub).post(`${RUNTIME}/instances/${id}/${operation}`).send(body);
    const statusOf = async (id: string) => (await as('ina').get(`${RUNTIME}/instances/${id}/progress`).expect(200)).body.instance.status;

    it('withdraw: the initiator only, while Running; open tasks are cancelled; a second withdraw is 409 InvalidState', async () => {
      const id = (await start('race-all', 'OP-W').expect(201)).body.id;
      expectProblem(await op('ivan', id, 'withdraw'), 403, 'Authorization.Denied');
      const res = await op('ina', id, 'withdraw', { reason: 'sent by mistake' }).expect(200);
      expect(res.body).toMatchObject({ status: 'Withdrawn', endedAt: expect.any(String) });
      expect(await pending(id)).toEqual([]);
      expect(await events('workflow.instance.withdrawn', id)).toBe(1);
      const again = await op('ina', id, 'withdraw');
      expectProblem(again, 409, 'Workflow.InvalidState');
      expect(again.body).toMatchObject({ title: expect.any(String), detail: expect.stringContaining('Withdrawn') });
    });

    it('suspend refuses votes (409 InvalidState) until resume; terminate ends a Suspended instance; cancel after that is 409', async () => {
      const id = (await start('race-all', 'OP-S').expect(201)).body.id;
      await op('mia', id, 'suspend').expect(200);
      const anna = await taskOf(id, 'anna');
      expectProblem(await complete('anna', anna), 409, 'Workflow.InvalidState');
      expectProblem(await op('mia', id, 'suspend'), 409, 'Workflow.InvalidState');
      await op('mia', id, 'resume').expect(200);
      await complete('anna', anna).expect(200);
      await op('mia', id, 'suspend').expect(200);
      expect((await op('mia', id, 'terminate', { reason: 'duplicate' }).expect(200)).body.status).toBe('Terminated');
      expect(await pending(id)).toEqual([]);
      expectProblem(await op('mia', id, 'cancel'), 409, 'Workflow.InvalidState');
      expectProblem(await op('mia', id, 'resume'), 409, 'Workflow.InvalidState');
      expect(await statusOf(id)).toBe('Terminated');
      for (const type of ['suspended', 'resumed', 'terminated']) expect(await events(`workflow.instance.${type}`, id)).toBeGreaterThan(0);
    });

    it('a stale version is 409 Workflow.ConcurrencyConflict and changes nothing', async () => {
      const started = (await start('race-all', 'OP-V').expect(201)).body;
      await op('mia', started.id, 'suspend', { version: started.version }).expect(200);
      const stale = await op('mia', started.id, 'resume', { version: started.version });
      expectProblem(stale, 409, 'Workflow.ConcurrencyConflict');
      expect(stale.body.detail).toContain(`version ${started.version + 1}`);
      expect(await statusOf(started.id)).toBe('Suspended');
    });

    it('concurrent ending operations on one instance: exactly one wins, the others are 409 problem+json, never a lost update or a 5xx', async () => {
      for (let i = 0; i < 3; i++) {
        const id = (await start('race-any', `OP-RACE-${i}`).expect(201)).body.id;
        const answers = await Promise.all([
          op('mia', id, 'terminate'),
          op('mia', id, 'cancel'),
          op('ina', id, 'withdraw'),
          complete('carl', await taskOf(id, 'carl')),
        ]);
        expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
        for (const loser of answers.filter((r) => r.status !== 200)) {
          expect(loser.status).toBe(409);
          expect(loser.headers['content-type']).toMatch(/application\/problem\+json/);
          expect(loser.body).toMatchObject({ title: expect.any(String), detail: expect.any(String) });
        }
        const ended = await n(
          `SELECT count(*)::int AS n FROM workflow.outbox_message WHERE envelope->'payload'->>'instanceId' = $1
             AND event_type IN ('workflow.instance.terminated', 'workflow.instance.cancelled', 'workflow.instance.withdrawn', 'workflow.instance.completed')`,
          [id],
        );
        expect(ended).toBe(1);
      }
    });

    it('priority and remind: the initiator only; priority bumps the version, remind publishes one event per open task', async () => {
      const started = (await start('race-all', 'OP-P').expect(201)).body;
      const id = started.id;
      expectProblem(await op('ivan', id, 'priority', { priority: 80 }), 403, 'Authorization.Denied');
      expectProblem(await op('ina', id, 'priority', { priority: 101 }), 400, 'Validation.Failed');
      const changed = await op('ina', id, 'priority', { priority: 80, version: started.version }).expect(200);
      expect(changed.body).toMatchObject({ priority: 80, version: started.version + 1 });
      expectProblem(await op('ina', id, 'priority', { priority: 10, version: started.version }), 409, 'Workflow.ConcurrencyConflict');
      expect(await events('workflow.instance.priority-changed', id)).toBe(1);
      expect((await op('ina', id, 'remind').expect(200)).body).toEqual({ reminded: 2 });
      expect(await events('workflow.task.reminded', id)).toBe(2);
      expectProblem(await op('ivan', id, 'remind'), 403, 'Authorization.Denied');
      await op('ina', id, 'withdraw').expect(200);
      expectProblem(await op('ina', id, 'remind'), 409, 'Workflow.InvalidState');
      expectProblem(await op('ina', id, 'priority', { priority: 5 }), 409, 'Workflow.InvalidState');
    });

    it('denies each operation without the permission (403) and writes nothing', async () => {
      const id = (await start('race-all', 'OP-D').expect(201)).body.id;
      const before = await written();
      for (const operation of ['withdraw', 'resubmit', 'terminate', 'cancel', 'suspend', 'resume', 'remind'])
        expectProblem(await op('nora', id, operation), 403, 'Authorization.Denied');
      expectProblem(await op('nora', id, 'priority', { priority: 1 }), 403, 'Authorization.Denied');
      // The initiator holds update, not manage.
      expectProblem(await op('ina', id, 'terminate'), 403, 'Authorization.Denied');
      expect(await written()).toEqual(before);
      expect(await statusOf(id)).toBe('Running');
    });
  });

  it('refuses a start with 403 Feature.Disabled once `workflow.runtime` is off for the tenant, and starts again once it is back on', async () => {
    const toggle = (enabled: boolean) =>
      platform.as('gus', 'globex').put('/api/authorization/features/workflow.runtime').send({ enabled, scope: 'tenant' }).expect(200);
    await start('race-any', 'FEAT-0', {}, 'gus', 'globex').expect(201);
    // Probed with a start of a key that has no definition (404 while the gate is open), so the probe never writes.
    const probe = () => start('no-such-flow', 'PROBE', {}, 'gus', 'globex');
    await toggle(false);
    await eventually(probe, (res) => res.status === 403, 20_000);
    const off = await start('race-any', 'FEAT-1', {}, 'gus', 'globex');
    expectProblem(off, 403, 'Feature.Disabled');
    expect(await n(`SELECT count(*)::int AS n FROM workflow.instance WHERE tenant_id = 'globex' AND business_key = 'FEAT-1'`)).toBe(0);
    await toggle(true);
    await eventually(probe, (res) => res.status === 404, 20_000);
    await start('race-any', 'FEAT-2', {}, 'gus', 'globex').expect(201);
  });
});

import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobRunResult } from '@lp/contracts';
import { ServiceJobs } from '@lp/platform/jobs';
import { createServiceApp, ServiceApp } from '@lp/platform/runtime';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { nodeTimeoutsJob, workflowEngineService } from '@lp/service/workflow-engine';
import { OperationsTestPlatform } from '../support/operations-platform';
import { signedRequests } from '../support/policy-platform';

const DEFS = '/api/workflow/definitions';
const RUNTIME = '/api/workflow/runtime';
const DESIGN = ['workflow.definition.view', 'workflow.definition.update', 'workflow.definition.manage'];
const START = ['workflow.instance.create', 'workflow.instance.view', 'workflow.task.view'];
const APPROVE = ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject', 'workflow.instance.view'];
const MANAGE = ['workflow.instance.manage', 'workflow.instance.view'];
const SYSTEM = 'workflow-engine:timeout';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const approval = (key: string, subjects: string[], timeout: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'approval',
  key,
  assignees: [{ kind: 'user', subjects }],
  timeout,
  ...extra,
});
const DEFINITIONS: Record<string, object> = {
  'remind-once': { name: 'Remind once', nodes: [approval('check', ['anna'], { after: 'PT1H', action: 'remind' })] },
  'remind-repeat': { name: 'Remind hourly', nodes: [approval('check', ['anna'], { after: 'PT1H', action: 'remind', repeatEvery: 'PT1H' })] },
  'auto-all': { name: 'Auto-approve all', nodes: [approval('pair', ['anna', 'ben'], { after: 3600, action: 'auto-approve' }, { mode: 'all' })] },
  'auto-one': { name: 'Auto-approve one', nodes: [approval('solo', ['anna'], { after: 'PT1H', action: 'auto-approve' })] },
  'auto-reject': { name: 'Auto-reject', nodes: [approval('solo', ['anna'], { after: 'PT1H', action: 'auto-reject' })] },
  /** The auto vote's walk reaches an approval with nobody (emptyAssignee `error`): refused as a person's vote would be. */
  'auto-then-nobody': {
    name: 'Auto-approve into nobody',
    nodes: [
      approval('solo', ['anna'], { after: 'PT1H', action: 'auto-approve' }),
      { kind: 'approval', key: 'next', assignees: [{ kind: 'variable', variable: 'nobody' }] },
    ],
  },
  'transfer-to': { name: 'Transfer to carl', nodes: [approval('desk', ['anna'], { after: 'PT1H', action: 'transfer', transferTo: 'carl' })] },
  'escalate-manager': {
    name: 'Escalate to the manager',
    variables: [{ name: 'manager', type: 'subject' }],
    nodes: [approval('desk', ['anna'], { after: 'PT1H', action: 'escalate', escalateTo: { kind: 'initiator-manager', variable: 'manager' } })],
  },
};

interface TaskState {
  id: string;
  assignee: string;
  status: string;
  decided_by: string | null;
}
interface TimerState {
  state: string;
  fired_count: number;
  due_at: Date;
}

/**
 * Node timeouts (docs/timeouts.md) on PostgreSQL, RabbitMQ and Redis. The clock is the run's `now`:
 * every timeout here is an hour (real time never reaches it during the file, so operations' own
 * scheduled runs find nothing due), and each run is called with a `now` hours ahead.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: node timeouts', () => {
  const platform = new OperationsTestPlatform('wftimeouts', { env: { USER_POLICY_LIMIT: '100000' } });
  let sql: DataSource;
  /** A second engine replica on the same database and queues: a "restarted" or concurrent instance. */
  let replica: ServiceApp;
  const engine = () => platform.service('workflow-engine').app;
  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));
  const runAt = (aheadMs: number, app: INestApplication = engine()): Promise<JobRunResult> => {
    const now = new Date(Date.now() + aheadMs);
    return app.get(ServiceJobs).run({ jobName: nodeTimeoutsJob.jobName, trigger: 'schedule', executionId: randomUUID(), scheduledFor: now, now });
  };
  const start = async (key: string, variables: object = {}, sub = 'ina', tenantId = 'default'): Promise<string> =>
    (await as(sub, tenantId).post(`${RUNTIME}/instances`).send({ definitionKey: key, businessKey: randomUUID(), variables }).expect(201)).body.id;
  const tasks = (instanceId: string): Promise<TaskState[]> =>
    sql.query(`SELECT id, assignee, status, decided_by FROM workflow.task WHERE instance_id = $1 ORDER BY created_at, seq`, [instanceId]);
  const timer = async (taskId: string): Promise<TimerState | undefined> =>
    (await sql.query(`SELECT state, fired_count, due_at FROM workflow.task_timer WHERE task_id = $1`, [taskId]))[0];
  const payloads = async (type: string, instanceId: string): Promise<Array<Record<string, unknown>>> =>
    (
      await sql.query(
        `SELECT envelope->'payload' AS p FROM workflow.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'instanceId' = $2 ORDER BY id`,
        [type, instanceId],
      )
    ).map((r: { p: Record<string, unknown> }) => r.p);
  const statusOf = async (instanceId: string): Promise<string> =>
    (await sql.query(`SELECT status FROM workflow.instance WHERE id = $1`, [instanceId]))[0].status;
  const only = async (instanceId: string): Promise<TaskState> => {
    const [task, ...more] = await tasks(instanceId);
    if (!task || more.length > 0) throw new Error(`instance ${instanceId} has ${more.length + (task ? 1 : 0)} tasks, expected one`);
    return task;
  };

  beforeAll(async () => {
    await platform.start();
    sql = engine().get(DataSource);
    replica = await createServiceApp(workflowEngineService, platform.runtime);
    await platform.grantRole('default', 'wanda', 'workflow-designer', DESIGN);
    await platform.grantRole('default', 'ina', 'workflow-starter', START);
    await platform.grantRole('default', 'mia', 'workflow-admin', MANAGE);
    for (const sub of ['anna', 'ben', 'carl', 'mona']) await platform.grantRole('default', sub, 'workflow-approver', APPROVE);
    await platform.seedTenantAdmin('globex', 'gus');
    for (const [key, definition] of Object.entries(DEFINITIONS)) await as('wanda').post(`${DEFS}/${key}/deployments`).send({ definition }).expect(201);
    await as('gus', 'globex')
      .post(`${DEFS}/gated/deployments`)
      .send({ definition: { name: 'Gated', nodes: [approval('solo', ['gus'], { after: 'PT1H', action: 'auto-approve' })] } })
      .expect(201);
  }, 120_000);
  afterAll(async () => {
    await replica?.app.close();
    await platform.stop();
  });

  it('is in the engine’s job catalog, every 60 s, and arms a due time with each task of a node with a timeout', async () => {
    expect(
      engine()
        .get(ServiceJobs)
        .catalog.find((j) => j.jobName === 'workflow-engine.node-timeouts')?.defaultSchedule,
    ).toEqual({ intervalSeconds: 60 });
    const id = await start('remind-once');
    const task = await only(id);
    const [row] = await sql.query(
      `SELECT t.created_at, tt.due_at, tt.action, tt.state FROM workflow.task t JOIN workflow.task_timer tt ON tt.task_id = t.id WHERE t.id = $1`,
      [task.id],
    );
    expect(row).toMatchObject({ action: 'remind', state: 'armed' });
    expect(row.due_at.getTime() - row.created_at.getTime()).toBe(HOUR);
  });

  it('remind: nothing before it is due; one reminder by the system once due; never a second one', async () => {
    const id = await start('remind-once');
    const task = await only(id);
    await runAt(30 * MINUTE);
    expect(await payloads('workflow.task.reminded', id)).toEqual([]);
    expect(await timer(task.id)).toMatchObject({ state: 'armed', fired_count: 0 });

    await runAt(2 * HOUR);
    expect(await payloads('workflow.task.reminded', id)).toEqual([expect.objectContaining({ taskId: task.id, assignee: 'anna', by: SYSTEM })]);
    expect(await payloads('workflow.task.timed-out', id)).toEqual([
      expect.objectContaining({ taskId: task.id, action: 'remind', outcome: 'reminded', assignee: 'anna', to: null, newTaskId: null, by: SYSTEM }),
    ]);
    expect(await only(id)).toMatchObject({ status: 'Pending' });
    await runAt(5 * HOUR);
    expect(await payloads('workflow.task.reminded', id)).toHaveLength(1);
    expect(await timer(task.id)).toMatchObject({ state: 'fired', fired_count: 1 });
  });

  it('repeatEvery: reminds again each interval while the task is open, once after a long gap, and stops when the task is decided', async () => {
    const id = await start('remind-repeat');
    const task = await only(id);
    const armed = (await timer(task.id))!.due_at.getTime();
    await runAt(HOUR + 5 * MINUTE);
    expect(await payloads('workflow.task.reminded', id)).toHaveLength(1);
    expect((await timer(task.id))!.due_at.getTime()).toBe(armed + HOUR);
    await runAt(HOUR + 10 * MINUTE);
    expect(await payloads('workflow.task.reminded', id)).toHaveLength(1);
    // Three intervals missed: one reminder, and the next one an interval after this run, not a burst.
    const gap = Date.now() + 5 * HOUR;
    await runAt(5 * HOUR);
    expect(await payloads('workflow.task.reminded', id)).toHaveLength(2);
    expect((await timer(task.id))!.due_at.getTime()).toBeGreaterThanOrEqual(gap + HOUR - MINUTE);

    await as('anna').post(`${RUNTIME}/tasks/${task.id}/complete`).send({}).expect(200);
    await runAt(24 * HOUR);
    expect(await payloads('workflow.task.reminded', id)).toHaveLength(2);
    expect(await timer(task.id)).toMatchObject({ state: 'dropped', fired_count: 2 });
  });

  it('auto-approve is a vote on the seat: on an `all` node the person’s earlier approval counts, its timer is dropped, and the system decides node and instance', async () => {
    const id = await start('auto-all');
    const [anna, ben] = await tasks(id);
    await as('anna').post(`${RUNTIME}/tasks/${anna!.id}/complete`).send({}).expect(200);
    await runAt(2 * HOUR);
    expect(await tasks(id)).toEqual([
      expect.objectContaining({ assignee: 'anna', status: 'Approved', decided_by: 'anna' }),
      expect.objectContaining({ assignee: 'ben', status: 'Approved', decided_by: SYSTEM }),
    ]);
    expect(await statusOf(id)).toBe('Approved');
    expect(await timer(anna!.id)).toMatchObject({ state: 'dropped', fired_count: 0 });
    expect(await timer(ben!.id)).toMatchObject({ state: 'fired', fired_count: 1 });
    expect((await payloads('workflow.task.completed', id)).map((p) => p['decidedBy'])).toEqual(['anna', SYSTEM]);
    expect(await payloads('workflow.instance.completed', id)).toEqual([expect.objectContaining({ status: 'Approved', decidedBy: SYSTEM })]);
    expect(await payloads('workflow.task.timed-out', id)).toEqual([expect.objectContaining({ taskId: ben!.id, action: 'auto-approve', outcome: 'approved' })]);
    // The person's vote afterwards finds the task decided.
    await as('ben').post(`${RUNTIME}/tasks/${ben!.id}/complete`).send({}).expect(409);
  });

  it('auto-reject rejects through the vote path: the task and the instance are Rejected by the system', async () => {
    const id = await start('auto-reject');
    await runAt(2 * HOUR);
    expect(await only(id)).toMatchObject({ status: 'Rejected', decided_by: SYSTEM });
    expect(await statusOf(id)).toBe('Rejected');
    expect(await payloads('workflow.task.completed', id)).toEqual([expect.objectContaining({ decision: 'Rejected', decidedBy: SYSTEM })]);
  });

  it('an action refused for good (the vote’s walk reaches an approval with nobody) writes nothing, settles the timer failed with the code, and is not retried', async () => {
    const id = await start('auto-then-nobody');
    const task = await only(id);
    const run = await runAt(2 * HOUR);
    expect(run.status).toBe('succeeded');
    expect(await only(id)).toMatchObject({ status: 'Pending', decided_by: null });
    expect(await sql.query(`SELECT state, error_code FROM workflow.task_timer WHERE task_id = $1`, [task.id])).toEqual([
      { state: 'failed', error_code: 'Workflow.Runtime.AssigneeEmpty' },
    ]);
    expect(await payloads('workflow.task.timed-out', id)).toEqual([]);
    // The assignee still decides; a person's approval is refused the same way.
    await as('anna').post(`${RUNTIME}/tasks/${task.id}/complete`).send({}).expect(422);
  });

  it('transfer hands the seat to `transferTo` once: the new holder’s task is not handed on again', async () => {
    const id = await start('transfer-to');
    const anna = await only(id);
    await runAt(2 * HOUR);
    const [closed, carl] = await tasks(id);
    expect(closed).toMatchObject({ id: anna.id, status: 'Transferred', decided_by: SYSTEM });
    expect(carl).toMatchObject({ assignee: 'carl', status: 'Pending' });
    expect(await payloads('workflow.task.transferred', id)).toEqual([
      expect.objectContaining({ taskId: anna.id, newTaskId: carl!.id, from: 'anna', to: 'carl' }),
    ]);
    expect(await payloads('workflow.task.timed-out', id)).toEqual([
      expect.objectContaining({ action: 'transfer', outcome: 'transferred', to: 'carl', newTaskId: carl!.id, by: SYSTEM }),
    ]);
    expect(await timer(carl!.id)).toBeUndefined();
    await runAt(10 * HOUR);
    expect(await tasks(id)).toHaveLength(2);
    // carl holds the seat now and decides.
    await as('carl').post(`${RUNTIME}/tasks/${carl!.id}/complete`).send({}).expect(200);
    expect(await statusOf(id)).toBe('Approved');
  });

  it('escalate passes the seat to the initiator’s manager read when it fires; a manager who holds the seat already gets a reminder instead', async () => {
    const id = await start('escalate-manager', { manager: 'mona' });
    const self = await start('escalate-manager', { manager: 'anna' });
    await runAt(2 * HOUR);
    expect((await tasks(id)).map((t) => [t.assignee, t.status])).toEqual([
      ['anna', 'Transferred'],
      ['mona', 'Pending'],
    ]);
    expect(await payloads('workflow.task.timed-out', id)).toEqual([expect.objectContaining({ action: 'escalate', outcome: 'transferred', to: 'mona' })]);
    expect(await only(self)).toMatchObject({ assignee: 'anna', status: 'Pending' });
    expect(await payloads('workflow.task.timed-out', self)).toEqual([expect.objectContaining({ action: 'escalate', outcome: 'reminded', to: null })]);
    expect(await payloads('workflow.task.reminded', self)).toEqual([expect.objectContaining({ assignee: 'anna', by: SYSTEM })]);
  });

  it('two replicas running the job at once fire each timer exactly once', async () => {
    // Reminders have no guard of their own (a vote has the task's guarded close): only the claim keeps them single.
    const reminded: string[] = [];
    const approved: string[] = [];
    for (let i = 0; i < 8; i++) {
      reminded.push(await start('remind-once'));
      approved.push(await start('auto-one'));
    }
    const results = await Promise.all([runAt(2 * HOUR), runAt(2 * HOUR, replica.app), runAt(2 * HOUR), runAt(2 * HOUR, replica.app)]);
    for (const result of results) expect(result.status).toBe('succeeded');
    for (const id of reminded) {
      expect(await payloads('workflow.task.reminded', id)).toHaveLength(1);
      expect(await payloads('workflow.task.timed-out', id)).toHaveLength(1);
      expect(await timer((await only(id)).id)).toMatchObject({ state: 'fired', fired_count: 1 });
    }
    for (const id of approved) {
      expect(await statusOf(id)).toBe('Approved');
      expect(await payloads('workflow.task.completed', id)).toHaveLength(1);
      expect(await payloads('workflow.task.timed-out', id)).toHaveLength(1);
      expect(await timer((await only(id)).id)).toMatchObject({ state: 'fired', fired_count: 1 });
    }
  });

  it('a run that crashes inside the action rolls it all back and leaves the timer due; a new instance of the engine fires it once', async () => {
    const id = await start('auto-one');
    const task = await only(id);
    // The crash: the last write of the firing (its timed-out event) fails, after the vote and the timer update were made.
    await sql.query(`
      CREATE FUNCTION workflow.crash_timeout() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.event_type = 'workflow.task.timed-out' AND NEW.envelope->'payload'->>'instanceId' = '${id}' THEN RAISE EXCEPTION 'simulated crash'; END IF;
        RETURN NEW;
      END $$`);
    await sql.query(`CREATE TRIGGER crash_timeout BEFORE INSERT ON workflow.outbox_message FOR EACH ROW EXECUTE FUNCTION workflow.crash_timeout()`);
    try {
      const crashed = await runAt(2 * HOUR);
      expect(crashed).toMatchObject({ status: 'failed', errorCode: 'Workflow.Timeout.Retry' });
    } finally {
      await sql.query(`DROP TRIGGER crash_timeout ON workflow.outbox_message`);
      await sql.query(`DROP FUNCTION workflow.crash_timeout()`);
    }
    expect(await only(id)).toMatchObject({ status: 'Pending', decided_by: null });
    expect(await statusOf(id)).toBe('Running');
    expect(await timer(task.id)).toMatchObject({ state: 'armed', fired_count: 0 });
    expect(await payloads('workflow.task.completed', id)).toEqual([]);

    await runAt(2 * HOUR, replica.app);
    expect(await only(id)).toMatchObject({ status: 'Approved', decided_by: SYSTEM });
    expect(await payloads('workflow.task.completed', id)).toHaveLength(1);
    await runAt(3 * HOUR);
    expect(await payloads('workflow.task.timed-out', id)).toHaveLength(1);
  });

  it('a Suspended instance’s timer waits for the resume, then fires', async () => {
    const id = await start('auto-one');
    const task = await only(id);
    await as('mia').post(`${RUNTIME}/instances/${id}/suspend`).send({}).expect(200);
    await runAt(2 * HOUR);
    expect(await only(id)).toMatchObject({ status: 'Pending' });
    expect(await timer(task.id)).toMatchObject({ state: 'armed' });
    await as('mia').post(`${RUNTIME}/instances/${id}/resume`).send({}).expect(200);
    await runAt(2 * HOUR);
    expect(await statusOf(id)).toBe('Approved');
  });

  it('skips a tenant whose workflow.runtime is off (its timers stay due) while another tenant’s fire, and fires them once it is back on', async () => {
    const toggle = (enabled: boolean) =>
      platform.as('gus', 'globex').put('/api/authorization/features/workflow.runtime').send({ enabled, scope: 'tenant' }).expect(200);
    const gated = await start('gated', {}, 'gus', 'globex');
    const gatedTask = await only(gated);
    await toggle(false);
    try {
      // The engine's gate follows the feature event: wait until it refuses a write, with a bound.
      const refused = await eventually(
        () => as('gus', 'globex').post(`${RUNTIME}/instances`).send({ definitionKey: 'gated', businessKey: randomUUID(), variables: {} }),
        (res) => res.status === 403,
        20_000,
      );
      expect(refused.status).toBe(403);
      const elsewhere = await start('auto-one');
      const run = await runAt(2 * HOUR);
      expect(run.detail).toMatch(/skipped tenants: .*globex/);
      expect(await statusOf(elsewhere)).toBe('Approved');
      expect(await only(gated)).toMatchObject({ status: 'Pending' });
      expect(await timer(gatedTask.id)).toMatchObject({ state: 'armed', fired_count: 0 });
      expect(await payloads('workflow.task.timed-out', gated)).toEqual([]);
    } finally {
      await toggle(true);
    }
    const fired = await eventually(
      async () => {
        await runAt(2 * HOUR);
        return statusOf(gated);
      },
      (status) => status === 'Approved',
      20_000,
      200,
    );
    expect(fired).toBe('Approved');
    expect(await only(gated)).toMatchObject({ status: 'Approved', decided_by: SYSTEM });
    expect(await payloads('workflow.task.timed-out', gated)).toHaveLength(1);
  });
});

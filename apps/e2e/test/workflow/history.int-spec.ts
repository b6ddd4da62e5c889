import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobRunResult } from '@lp/contracts';
import { ServiceJobs } from '@lp/platform/jobs';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';

const DEFS = '/api/workflow/definitions';
const RUNTIME = '/api/workflow/runtime';
const HISTORY = '/api/workflow/history';
const DESIGN = ['workflow.definition.view', 'workflow.definition.update', 'workflow.definition.manage'];
const START = ['workflow.instance.create', 'workflow.instance.view', 'workflow.task.view', 'workflow.instance.update'];
const APPROVE = ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject', 'workflow.instance.view'];
const ARCHIVIST = ['workflow.instance.manage', 'workflow.instance.view', 'workflow.management.manage'];
const RETENTION_JOB = 'workflow-engine.history-retention';
const DAY = 86_400_000;

const approval = (key: string, subjects: string[], extra: Record<string, unknown> = {}) => ({
  kind: 'approval',
  key,
  assignees: [{ kind: 'user', subjects }],
  ...extra,
});
/** intake (transfer allowed), then the board (all), which may send the instance back to intake. */
const flow = {
  name: 'History flow',
  nodes: [
    approval('intake', ['lena'], { operations: { transfer: true } }),
    approval('board', ['anna', 'ben'], { mode: 'all', operations: { rejectTargets: ['intake'] } }),
  ],
};
const solo = { name: 'Solo', nodes: [approval('solo', ['otto'])] };

interface Task {
  id: string;
  nodeKey: string;
  assignee: string;
  status: string;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: instance history, archive and retention over HTTP', () => {
  // Two archived instances per retention batch, so the purge's batches show.
  const platform = new OperationsTestPlatform('wfhist', { env: { USER_POLICY_LIMIT: '100000', RETENTION_BATCH_SIZE: '2' } });
  let sql: DataSource;
  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));
  const n = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params))[0].n);
  const hotRows = async (id: string) => ({
    instance: await n(`SELECT count(*)::int AS n FROM workflow.instance WHERE id = $1`, [id]),
    tasks: await n(`SELECT count(*)::int AS n FROM workflow.task WHERE instance_id = $1`, [id]),
    events: await n(`SELECT count(*)::int AS n FROM workflow.instance_event WHERE instance_id = $1`, [id]),
  });
  const archivedRows = async (id: string) => ({
    instance: await n(`SELECT count(*)::int AS n FROM workflow.instance_archive WHERE id = $1`, [id]),
    tasks: await n(`SELECT count(*)::int AS n FROM workflow.task_archive WHERE instance_id = $1`, [id]),
    events: await n(`SELECT count(*)::int AS n FROM workflow.instance_event_archive WHERE instance_id = $1`, [id]),
  });
  const pending = async (id: string): Promise<Task[]> =>
    (await as('ina').get(`${RUNTIME}/instances/${id}/progress`).expect(200)).body.nodes.flatMap((node: { tasks: Task[] }) =>
      node.tasks.filter((t) => t.status === 'Pending'),
    );
  const taskOf = async (id: string, assignee: string): Promise<Task> => {
    const task = (await pending(id)).find((t) => t.assignee === assignee);
    if (!task) throw new Error(`no pending task for ${assignee} in ${id}`);
    return task;
  };
  const vote = async (sub: string, id: string, verb: 'complete' | 'reject', body: object = {}) =>
    as(sub)
      .post(`${RUNTIME}/tasks/${(await taskOf(id, sub)).id}/${verb}`)
      .send(body)
      .expect(200);
  const start = async (key: string, businessKey: string, sub = 'ina', tenantId = 'default'): Promise<string> =>
    (await as(sub, tenantId).post(`${RUNTIME}/instances`).send({ definitionKey: key, businessKey }).expect(201)).body.id;
  const withdraw = (id: string, reason?: string, sub = 'ina', tenantId = 'default') =>
    as(sub, tenantId)
      .post(`${RUNTIME}/instances/${id}/withdraw`)
      .send(reason ? { reason } : {})
      .expect(200);
  const archive = (id: string, sub = 'mia', tenantId = 'default') => as(sub, tenantId).post(`${HISTORY}/instances/${id}/archive`).send();
  const runJob = (now: Date): Promise<JobRunResult> =>
    platform
      .service('workflow-engine')
      .app.get(ServiceJobs)
      .run({ jobName: RETENTION_JOB, trigger: 'schedule', executionId: randomUUID(), scheduledFor: now, now });
  const toggleRuntime = (enabled: boolean) =>
    platform.as('gus', 'globex').put('/api/authorization/features/workflow.runtime').send({ enabled, scope: 'tenant' }).expect(200);

  /** The run of the flow the log must mirror: a transfer, votes, a rejection back to intake, the second round, the end. */
  let ran: string;
  let withdrawn: string;
  let soloRunning: string;
  let reset: string;

  beforeAll(async () => {
    await platform.start();
    sql = platform.service('workflow-engine').app.get(DataSource);
    await platform.grantRole('default', 'wanda', 'workflow-designer', DESIGN);
    await platform.grantRole('default', 'ina', 'workflow-starter', START);
    await platform.grantRole('default', 'mia', 'workflow-archivist', ARCHIVIST);
    for (const sub of ['lena', 'otto', 'anna', 'ben']) await platform.grantRole('default', sub, 'workflow-approver', APPROVE);
    await platform.grantRole('default', 'nora', 'case-reader', ['cases.case.view']);
    await platform.seedTenantAdmin('globex', 'gus');
    for (const [key, definition] of Object.entries({ flow, solo })) await as('wanda').post(`${DEFS}/${key}/deployments`).send({ definition }).expect(201);
    await as('gus', 'globex').post(`${DEFS}/solo/deployments`).send({ definition: solo }).expect(201);

    ran = await start('flow', 'HIS-1');
    await as('lena')
      .post(`${RUNTIME}/tasks/${(await taskOf(ran, 'lena')).id}/transfer`)
      .send({ to: 'otto', comment: 'on leave' })
      .expect(200);
    await vote('otto', ran, 'complete', { comment: 'looks fine' });
    await vote('anna', ran, 'complete');
    await vote('ben', ran, 'reject', { comment: 'annex missing', target: 'intake' });
    await vote('lena', ran, 'complete', { comment: 'annex added' });
    await vote('anna', ran, 'complete');
    const last = await vote('ben', ran, 'complete');
    expect(last.body.instance.status).toBe('Approved');

    withdrawn = await start('flow', 'CASE-7');
    await withdraw(withdrawn, 'filed by mistake');
    soloRunning = await start('solo', 'CASE-7');

    // An administrator's operation: reset back to intake after the first approval, then terminate.
    reset = await start('flow', 'ADM-1');
    await vote('lena', reset, 'complete');
    await as('mia').post(`${RUNTIME}/instances/${reset}/reset`).send({ nodeKey: 'intake', reason: 'wrong annex' }).expect(200);
    await as('mia').post(`${RUNTIME}/instances/${reset}/terminate`).send({ reason: 'duplicate' }).expect(200);
  }, 180_000);
  afterAll(() => platform.stop());

  describe('the event log', () => {
    it('holds one row per runtime event, in the order the operations ran, each the outbox event it was published as', async () => {
      const log: Array<{ seq: number; event_id: string; event_type: string; actor: string | null; node_key: string | null; comment: string | null }> =
        await sql.query(`SELECT seq, event_id, event_type, actor, node_key, comment FROM workflow.instance_event WHERE instance_id = $1 ORDER BY seq`, [ran]);
      expect(log.map((e) => [e.event_type.replace('workflow.', ''), e.actor, e.node_key, e.comment])).toEqual([
        ['instance.started', 'ina', null, null],
        ['task.created', null, 'intake', null],
        ['task.transferred', 'lena', 'intake', 'on leave'],
        ['task.created', null, 'intake', null],
        ['task.completed', 'otto', 'intake', 'looks fine'],
        ['task.created', null, 'board', null],
        ['task.created', null, 'board', null],
        ['task.completed', 'anna', 'board', null],
        ['task.completed', 'ben', 'board', 'annex missing'],
        ['task.created', null, 'intake', null],
        ['task.completed', 'lena', 'intake', 'annex added'],
        ['task.created', null, 'board', null],
        ['task.created', null, 'board', null],
        ['task.completed', 'anna', 'board', null],
        ['task.completed', 'ben', 'board', null],
        ['instance.completed', 'ben', null, null],
      ]);
      expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
      const outbox: Array<{ event_id: string; event_type: string }> = await sql.query(
        `SELECT event_id, event_type FROM workflow.outbox_message WHERE envelope->'payload'->>'instanceId' = $1 ORDER BY id`,
        [ran],
      );
      expect(log.map((e) => [e.event_id, e.event_type])).toEqual(outbox.map((e) => [e.event_id, e.event_type]));
    });

    it('logs a withdrawal with its reason', async () => {
      const log = await sql.query(`SELECT event_type, actor, comment FROM workflow.instance_event WHERE instance_id = $1 ORDER BY seq`, [withdrawn]);
      expect(log).toEqual([
        { event_type: 'workflow.instance.started', actor: 'ina', comment: null },
        { event_type: 'workflow.task.created', actor: null, comment: null },
        { event_type: 'workflow.instance.withdrawn', actor: 'ina', comment: 'filed by mistake' },
      ]);
    });

    it('refuses UPDATE and DELETE of its rows in the store itself', async () => {
      await expect(sql.query(`UPDATE workflow.instance_event SET actor = 'mallory' WHERE instance_id = $1`, [ran])).rejects.toThrow(/append-only/);
      await expect(sql.query(`DELETE FROM workflow.instance_event WHERE instance_id = $1`, [ran])).rejects.toThrow(/append-only/);
      expect(await n(`SELECT count(*)::int AS n FROM workflow.instance_event WHERE instance_id = $1 AND actor = 'mallory'`, [ran])).toBe(0);
      expect((await hotRows(ran)).events).toBe(16);
    });
  });

  describe('instance history routes', () => {
    it('timeline: the events in order, paged', async () => {
      const first = await as('ina').get(`${HISTORY}/instances/${ran}/timeline?pageSize=5`).expect(200);
      expect(first.body).toMatchObject({ pageIndex: 0, pageSize: 5, totalCount: 16 });
      expect(first.body.items.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(first.body.items[2]).toMatchObject({
        instanceId: ran,
        definitionKey: 'flow',
        type: 'workflow.task.transferred',
        actor: 'lena',
        nodeKey: 'intake',
        comment: 'on leave',
        payload: { from: 'lena', to: 'otto' },
      });
      const last = await as('ina').get(`${HISTORY}/instances/${ran}/timeline?pageIndex=3&pageSize=5`).expect(200);
      expect(last.body.items.map((e: { type: string }) => e.type)).toEqual(['workflow.instance.completed']);
      expectProblem(await as('ina').get(`${HISTORY}/instances/${ran}/timeline?pageSize=101`), 400, 'Validation.Failed');
    });

    it('summary: status, start and end, duration, tasks by status, current nodes, who decided each node visit', async () => {
      const { body } = await as('ina').get(`${HISTORY}/instances/${ran}`).expect(200);
      expect(body).toMatchObject({
        instance: { id: ran, businessKey: 'HIS-1', initiator: 'ina', status: 'Approved' },
        archived: false,
        archivedAt: null,
        tasks: { total: 7, Pending: 0, Approved: 5, Rejected: 1, Transferred: 1, Delegated: 0, Cancelled: 0 },
        currentNodes: [],
        events: 16,
      });
      expect(body.durationMs).toBe(Date.parse(body.endedAt) - Date.parse(body.startedAt));
      expect(
        body.nodes.map((v: { nodeKey: string; visit: number; outcome: string; decidedBy: string; votes: unknown[] }) => [
          v.nodeKey,
          v.visit,
          v.outcome,
          v.decidedBy,
          v.votes.length,
        ]),
      ).toEqual([
        ['intake', 1, 'Approved', 'otto', 1],
        ['board', 1, 'Rejected', 'ben', 2],
        ['intake', 2, 'Approved', 'lena', 1],
        ['board', 2, 'Approved', 'ben', 2],
      ]);
      const running = (await as('ina').get(`${HISTORY}/instances/${soloRunning}`).expect(200)).body;
      expect(running).toMatchObject({ currentNodes: ['solo'], endedAt: null, durationMs: null, tasks: { total: 1, Pending: 1 } });
      expect(running.nodes).toEqual([{ nodeKey: 'solo', visit: 1, outcome: null, decidedBy: null, decidedAt: null, votes: [] }]);
    });

    it('trail: the human actions with actor, time and comment; not the engine’s own steps', async () => {
      const { body } = await as('ina').get(`${HISTORY}/instances/${ran}/trail`).expect(200);
      expect(body.totalCount).toBe(8);
      expect(
        body.items.map((e: { action: string; actor: string; nodeKey: string | null; comment: string | null }) => [e.action, e.actor, e.nodeKey, e.comment]),
      ).toEqual([
        ['started', 'ina', null, null],
        ['transferred', 'lena', 'intake', 'on leave'],
        ['approved', 'otto', 'intake', 'looks fine'],
        ['approved', 'anna', 'board', null],
        ['rejected', 'ben', 'board', 'annex missing'],
        ['approved', 'lena', 'intake', 'annex added'],
        ['approved', 'anna', 'board', null],
        ['approved', 'ben', 'board', null],
      ]);
      expect(body.items[1].details).toMatchObject({ to: 'otto' });
      expect(Date.parse(body.items[0].occurredAt)).toBeLessThanOrEqual(Date.parse(body.items[7].occurredAt));
      const withdrawal = (await as('ina').get(`${HISTORY}/instances/${withdrawn}/trail`).expect(200)).body.items;
      expect(withdrawal.map((e: { action: string; actor: string; comment: string | null }) => [e.action, e.actor, e.comment])).toEqual([
        ['started', 'ina', null],
        ['withdrawn', 'ina', 'filed by mistake'],
      ]);
      const administered = (await as('ina').get(`${HISTORY}/instances/${reset}/trail`).expect(200)).body.items;
      expect(administered.map((e: { action: string; actor: string; comment: string | null }) => [e.action, e.actor, e.comment])).toEqual([
        ['started', 'ina', null],
        ['approved', 'lena', null],
        ['reset', 'mia', 'wrong annex'],
        ['terminated', 'mia', 'duplicate'],
      ]);
      expect(administered[2].details).toMatchObject({ from: ['board'], to: 'intake' });
    });

    it('answers another tenant’s instance, a missing one and a non-UUID alike: 404', async () => {
      for (const path of [`/instances/${ran}`, `/instances/${ran}/timeline`, `/instances/${ran}/trail`]) {
        expectProblem(await as('gus', 'globex').get(`${HISTORY}${path}`), 404, 'NotFound');
      }
      expectProblem(await as('ina').get(`${HISTORY}/instances/${randomUUID()}/timeline`), 404, 'NotFound');
      expectProblem(await as('ina').get(`${HISTORY}/instances/not-a-uuid`), 404, 'NotFound');
    });

    it('denies a caller without workflow.instance.view, and archive without workflow.instance.manage: 403, nothing moved', async () => {
      for (const path of [
        `/instances/${ran}`,
        `/instances/${ran}/timeline`,
        `/instances/${ran}/trail`,
        '/business/HIS-1/status',
        '/business/HIS-1/timeline',
        '/retention',
      ]) {
        expectProblem(await as('nora').get(`${HISTORY}${path}`), 403, 'Authorization.Denied');
      }
      const audits = await n(`SELECT count(*)::int AS n FROM workflow.admin_audit`);
      expectProblem(await archive(ran, 'nora'), 403, 'Authorization.Denied');
      expectProblem(await archive(ran, 'ina'), 403, 'Authorization.Denied');
      expect(await hotRows(ran)).toEqual({ instance: 1, tasks: 7, events: 16 });
      expect(await archivedRows(ran)).toEqual({ instance: 0, tasks: 0, events: 0 });
      expect(await n(`SELECT count(*)::int AS n FROM workflow.admin_audit`)).toBe(audits);
    });
  });

  describe('business-key aggregate', () => {
    it('status: the newest instance’s status plus counts, across definitions; timeline: every instance’s events, newest first', async () => {
      const status = (await as('ina').get(`${HISTORY}/business/CASE-7/status`).expect(200)).body;
      expect(status).toMatchObject({
        businessKey: 'CASE-7',
        status: 'Running',
        latest: { id: soloRunning, definitionKey: 'solo' },
        instances: 2,
        byStatus: { Running: 1, Withdrawn: 1 },
        definitionKeys: ['flow', 'solo'],
      });
      const timeline = (await as('ina').get(`${HISTORY}/business/CASE-7/timeline`).expect(200)).body;
      expect(timeline.totalCount).toBe(5);
      expect(timeline.items.map((e: { instanceId: string; type: string }) => [e.instanceId, e.type])).toEqual([
        [soloRunning, 'workflow.task.created'],
        [soloRunning, 'workflow.instance.started'],
        [withdrawn, 'workflow.instance.withdrawn'],
        [withdrawn, 'workflow.task.created'],
        [withdrawn, 'workflow.instance.started'],
      ]);
    });

    it('another tenant’s business key answers exactly as an unknown one (404), the tenant coming only from the token', async () => {
      // Everything but the request's own path and correlation id.
      const strip = (body: Record<string, unknown>) => ({ ...body, correlationId: undefined, instance: undefined });
      for (const route of ['status', 'timeline']) {
        const foreign = await as('gus', 'globex').get(`${HISTORY}/business/CASE-7/${route}`);
        const unknown = await as('gus', 'globex').get(`${HISTORY}/business/NO-SUCH-KEY/${route}`);
        expectProblem(foreign, 404, 'NotFound');
        expect(strip(foreign.body)).toEqual(strip(unknown.body));
      }
      // A tenant in the query string is no way in: ignored where the route takes no query, refused where it takes paging.
      expectProblem(await as('gus', 'globex').get(`${HISTORY}/business/CASE-7/status?tenantId=default`), 404, 'NotFound');
      expectProblem(await as('gus', 'globex').get(`${HISTORY}/business/CASE-7/timeline?tenantId=default`), 400, 'Validation.Failed');
      expectProblem(await as('ina').get(`${HISTORY}/business/${'k'.repeat(201)}/status`), 400, 'Validation.Failed');
    });
  });

  describe('archive', () => {
    it('refuses a Running instance with 409 Workflow.InvalidState and moves nothing', async () => {
      expectProblem(await archive(soloRunning), 409, 'Workflow.InvalidState');
      expect(await hotRows(soloRunning)).toEqual({ instance: 1, tasks: 1, events: 2 });
      expect(await archivedRows(soloRunning)).toEqual({ instance: 0, tasks: 0, events: 0 });
    });

    it('moves an ended instance with its tasks and events out of the hot tables in one go, audited; history reads it as before; idempotent', async () => {
      const before = {
        summary: (await as('ina').get(`${HISTORY}/instances/${ran}`).expect(200)).body,
        timeline: (await as('ina').get(`${HISTORY}/instances/${ran}/timeline?pageSize=100`).expect(200)).body,
        trail: (await as('ina').get(`${HISTORY}/instances/${ran}/trail`).expect(200)).body,
      };
      const res = await archive(ran).expect(200);
      expect(res.body).toMatchObject({ archived: true, archivedBy: 'mia', instance: { id: ran, status: 'Approved' } });
      expect(await hotRows(ran)).toEqual({ instance: 0, tasks: 0, events: 0 });
      expect(await archivedRows(ran)).toEqual({ instance: 1, tasks: 7, events: 16 });
      expect(await sql.query(`SELECT operation, subject, before, after FROM workflow.admin_audit WHERE instance_id = $1`, [ran])).toEqual([
        {
          operation: 'archive',
          subject: 'mia',
          before: expect.objectContaining({ archived: false, status: 'Approved' }),
          after: expect.objectContaining({ archived: true }),
        },
      ]);

      const { archived, archivedAt, archivedBy, ...rest } = (await as('ina').get(`${HISTORY}/instances/${ran}`).expect(200)).body;
      expect({ archived, archivedBy }).toEqual({ archived: true, archivedBy: 'mia' });
      expect(rest).toEqual(Object.fromEntries(Object.entries(before.summary).filter(([k]) => !k.startsWith('archived'))));
      expect((await as('ina').get(`${HISTORY}/instances/${ran}/timeline?pageSize=100`).expect(200)).body).toEqual(before.timeline);
      expect((await as('ina').get(`${HISTORY}/instances/${ran}/trail`).expect(200)).body).toEqual(before.trail);
      // The runtime no longer knows it; history and the business key still do.
      expectProblem(await as('ina').get(`${RUNTIME}/instances/${ran}/progress`), 404, 'NotFound');
      expect((await as('ina').get(`${HISTORY}/business/HIS-1/status`).expect(200)).body).toMatchObject({ status: 'Approved', instances: 1 });

      const again = await archive(ran).expect(200);
      expect(again.body.archivedAt).toBe(archivedAt);
      expect(await n(`SELECT count(*)::int AS n FROM workflow.admin_audit WHERE instance_id = $1`, [ran])).toBe(1);
      // The archive is append-only too.
      await expect(sql.query(`DELETE FROM workflow.instance_event_archive WHERE instance_id = $1`, [ran])).rejects.toThrow(/append-only/);
    });

    it('keeps a withdrawn instance in the business-key aggregate once archived', async () => {
      await archive(withdrawn).expect(200);
      expect((await as('ina').get(`${HISTORY}/business/CASE-7/status`).expect(200)).body).toMatchObject({
        instances: 2,
        byStatus: { Running: 1, Withdrawn: 1 },
      });
      expect((await as('ina').get(`${HISTORY}/business/CASE-7/timeline`).expect(200)).body.totalCount).toBe(5);
    });
  });

  describe('retention', () => {
    /** A withdrawn instance of `tenantId` that ended `daysAgo`, archived. */
    async function archivedEnded(businessKey: string, daysAgo: number, sub = 'ina', tenantId = 'default'): Promise<string> {
      const id = await start('solo', businessKey, sub, tenantId);
      await withdraw(id, undefined, sub, tenantId);
      // Back-date the end in the hot table (the archive is append-only), as if it had ended then.
      await sql.query(`UPDATE workflow.instance SET ended_at = $2 WHERE id = $1`, [id, new Date(Date.now() - daysAgo * DAY)]);
      await archive(id, sub === 'ina' ? 'mia' : sub, tenantId).expect(200);
      return id;
    }

    it('is set per tenant by workflow.management.manage (403 without it, nothing written), null restoring the default', async () => {
      expect((await as('ina').get(`${HISTORY}/retention`).expect(200)).body).toEqual({
        retentionDays: 2555,
        tenantRetentionDays: null,
        defaultRetentionDays: 2555,
      });
      expectProblem(await as('ina').put(`${HISTORY}/retention`).send({ retentionDays: 1 }), 403, 'Authorization.Denied');
      expect(await n(`SELECT count(*)::int AS n FROM workflow.tenant_settings`)).toBe(0);
      expectProblem(await as('mia').put(`${HISTORY}/retention`).send({ retentionDays: 0 }), 400, 'Validation.Failed');
      expectProblem(await as('mia').put(`${HISTORY}/retention`).send({ days: 30 }), 400, 'Validation.Failed');
      expect((await as('mia').put(`${HISTORY}/retention`).send({ retentionDays: null }).expect(200)).body.retentionDays).toBe(2555);
      expect((await as('mia').put(`${HISTORY}/retention`).send({ retentionDays: 30 }).expect(200)).body).toEqual({
        retentionDays: 30,
        tenantRetentionDays: 30,
        defaultRetentionDays: 2555,
      });
      // Another tenant keeps the default.
      expect((await as('gus', 'globex').get(`${HISTORY}/retention`).expect(200)).body.retentionDays).toBe(2555);
    });

    it('purges archived history past the tenant’s retention in batches, keeps the rest, and skips a tenant whose workflow.runtime is off', async () => {
      const old = [];
      for (let i = 0; i < 5; i++) old.push(await archivedEnded(`RET-OLD-${i}`, 40));
      const recent = await archivedEnded('RET-NEW', 10);
      // globex keeps the default (2555 days): this one is past it.
      const globexOld = await archivedEnded('RET-G', 3000, 'gus', 'globex');
      const globexHot = await start('solo', 'RET-G-HOT', 'gus', 'globex');
      await withdraw(globexHot, undefined, 'gus', 'globex');
      await toggleRuntime(false);
      await eventually(
        () => as('gus', 'globex').put(`${HISTORY}/retention`).send({ retentionDays: 100 }),
        (res) => res.status === 403,
        10_000,
      );
      // Archive is a write: refused while the feature is off, nothing moved.
      expectProblem(await archive(globexHot, 'gus', 'globex'), 403, 'Feature.Disabled');
      expect(await hotRows(globexHot)).toEqual({ instance: 1, tasks: 1, events: 3 });

      const run = await runJob(new Date());
      // 5 instances of 6 rows each (3 events, 1 task, 1 audit row, the instance): batches of 2, 2 and 1.
      expect(run).toEqual({
        status: 'succeeded',
        detail: expect.stringMatching(/^30 rows in 3 batches, \d+ ms; 5 archived instances of 1 tenants; 1 tenants skipped \(workflow\.runtime off\): globex$/),
        startedAt: expect.any(String),
      });
      for (const id of old) expect(await archivedRows(id)).toEqual({ instance: 0, tasks: 0, events: 0 });
      expect(await n(`SELECT count(*)::int AS n FROM workflow.admin_audit WHERE instance_id = ANY ($1::uuid[])`, [old])).toBe(0);
      expectProblem(await as('ina').get(`${HISTORY}/instances/${old[0]}`), 404, 'NotFound');
      expect(await archivedRows(recent)).toEqual({ instance: 1, tasks: 1, events: 3 });
      expect(await archivedRows(ran)).toEqual({ instance: 1, tasks: 7, events: 16 });
      expect(await archivedRows(globexOld)).toEqual({ instance: 1, tasks: 1, events: 3 });

      await toggleRuntime(true);
      await eventually(
        () => as('gus', 'globex').put(`${HISTORY}/retention`).send({ retentionDays: null }),
        (res) => res.status === 200,
        10_000,
      );
      const second = await runJob(new Date());
      expect(second.detail).toMatch(/^6 rows in \d+ batches, \d+ ms; 1 archived instances of 2 tenants; 0 tenants skipped/);
      expect(await archivedRows(globexOld)).toEqual({ instance: 0, tasks: 0, events: 0 });
      expect(await archivedRows(recent)).toEqual({ instance: 1, tasks: 1, events: 3 });
    });
  });
});

import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { describeWithServers } from '@lp/platform/testing';
import { expectConformance, servedDocument } from '../support/openapi-conformance';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem } from '../support/policy-platform';

const REPORTS = '/api/workflow/reports';
const TENANT = 'rpt';
const OTHER = 'acme-rpt';
const NAMES = ['instances', 'task-duration', 'approvers', 'bottlenecks', 'rejects', 'trends', 'deployments'] as const;
/** The fixture's period: three UTC days. */
const PERIOD = { From: '2026-03-01', To: '2026-03-04' };

/**
 * The workflow reports over HTTP against fixtures written by SQL with known timestamps in tenant
 * `rpt`, each figure computed by hand below (beside the fixture rows it comes from). Tenant
 * `acme-rpt` holds look-alike rows (same keys, same approvers, same days) that must never count.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: reports over QUERY and POST', () => {
  const platform = new OperationsTestPlatform('wfrep');
  let sql: DataSource;
  let http: unknown;
  const auth = (sub: string, tenantId: string) => `Bearer ${platform.token({ sub, tenantId })}`;
  /** QUERY /reports/<name> with the query as JSON body (supertest sends any method Node knows; Node 20 knows QUERY). */
  const query = (name: string, body: object | undefined, sub = 'rita', tenantId = TENANT) => {
    // supertest declares its method helpers from Node's method list but types only the common ones.
    const agent = request(http as never) as unknown as { query(url: string): request.Test };
    const call = agent.query(`${REPORTS}/${name}`).set('Authorization', auth(sub, tenantId));
    return body === undefined ? call : call.set('Content-Type', 'application/json').send(body);
  };
  const post = (name: string, body: object | undefined, sub = 'rita', tenantId = TENANT) => {
    const call = request(http as never)
      .post(`${REPORTS}/${name}/_query`)
      .set('Authorization', auth(sub, tenantId));
    return body === undefined ? call : call.send(body);
  };

  async function definition(tenantId: string, key: string, versions: number): Promise<string[]> {
    await sql.query(`INSERT INTO workflow.definition (tenant_id, key, created_by) VALUES ($1, $2, 'test')`, [tenantId, key]);
    const ids: string[] = [];
    for (let version = 1; version <= versions; version++) {
      const id = randomUUID();
      await sql.query(
        `INSERT INTO workflow.definition_version (id, tenant_id, key, version, definition, checksum, source, created_by)
         VALUES ($1, $2, $3, $4, '{"name":"x","nodes":[]}', repeat('0', 64), 'publish', 'test')`,
        [id, tenantId, key, version],
      );
      ids.push(id);
    }
    return ids;
  }
  const versionOf = new Map<string, string>();
  async function instance(tenantId: string, key: string, status: string, createdAt: string, endedAt: string | null = null): Promise<string> {
    const id = randomUUID();
    await sql.query(
      `INSERT INTO workflow.instance (id, tenant_id, definition_key, definition_version_id, business_key, initiator, status, created_at, updated_at, ended_at)
       VALUES ($1::uuid, $2, $3, $4, $1::text, 'ina', $5, $6, $6, $7)`,
      [id, tenantId, key, versionOf.get(`${tenantId}/${key}`), status, createdAt, endedAt],
    );
    return id;
  }
  async function task(
    instanceId: string,
    t: { tenantId?: string; node: string; assignee: string; status: string; createdAt: string; decidedAt?: string; comment?: string; owner?: string },
  ): Promise<void> {
    const decided = t.status === 'Approved' || t.status === 'Rejected';
    await sql.query(
      `INSERT INTO workflow.task (id, tenant_id, instance_id, node_key, visit, seq, assignee, owner, status, comment, decided_at, decided_by, created_at)
       VALUES ($1, $2, $3, $4, 1, 0, $5, $6, $7, $8, $9, $10, $11)`,
      [
        randomUUID(),
        t.tenantId ?? TENANT,
        instanceId,
        t.node,
        t.assignee,
        t.owner ?? null,
        t.status,
        t.comment ?? null,
        t.decidedAt ?? null,
        decided ? t.assignee : null,
        t.createdAt,
      ],
    );
  }
  async function deployment(tenantId: string, key: string, action: string, at: string): Promise<void> {
    const [v1, v2] = [versionOf.get(`${tenantId}/${key}`), versionOf.get(`${tenantId}/${key}#2`) ?? versionOf.get(`${tenantId}/${key}`)];
    await sql.query(
      `INSERT INTO workflow.definition_deployment (id, tenant_id, key, action, from_version_id, to_version_id, actor, at) VALUES ($1, $2, $3, $4, $5, $6, 'test', $7)`,
      [randomUUID(), tenantId, key, action, v1, v2, at],
    );
  }

  beforeAll(async () => {
    await platform.start();
    const engine = platform.service('workflow-engine');
    sql = engine.app.get(DataSource);
    http = engine.http;
    await platform.grantRole(TENANT, 'rita', 'workflow-reporter', ['workflow.report.view']);
    await platform.grantRole(TENANT, 'nils', 'workflow-viewer', ['workflow.instance.view', 'workflow.task.view', 'workflow.definition.view']);
    await platform.grantRole(OTHER, 'olga', 'workflow-reporter', ['workflow.report.view']);

    for (const tenantId of [TENANT, OTHER]) {
      const [c1, c2] = await definition(tenantId, 'contract', 2);
      const [l1] = await definition(tenantId, 'leave', 1);
      versionOf.set(`${tenantId}/contract`, c1!).set(`${tenantId}/contract#2`, c2!).set(`${tenantId}/leave`, l1!);
    }

    // Tenant rpt. Instances (started → ended, duration):
    const i1 = await instance(TENANT, 'contract', 'Approved', '2026-03-01T09:00Z', '2026-03-01T11:00Z'); // 7,200 s
    const i2 = await instance(TENANT, 'contract', 'Rejected', '2026-03-01T10:00Z', '2026-03-02T10:00Z'); // 86,400 s
    const i3 = await instance(TENANT, 'contract', 'Running', '2026-03-02T08:00Z');
    const i4 = await instance(TENANT, 'leave', 'Approved', '2026-03-02T09:00Z', '2026-03-03T09:30Z'); // 88,200 s
    const i5 = await instance(TENANT, 'leave', 'Withdrawn', '2026-03-03T12:00Z', '2026-03-03T13:00Z'); // ended, not completed
    const i6 = await instance(TENANT, 'contract', 'Approved', '2026-02-27T00:00Z', '2026-03-01T00:00Z'); // started before, completed at From: 172,800 s
    await instance(TENANT, 'contract', 'Running', '2026-03-04T00:00Z'); // at To: outside the period
    const i8 = await instance(TENANT, 'leave', 'Running', '2026-03-03T00:00Z');

    // Tasks (opened → decided, seconds):
    await task(i1, { node: 'legal', assignee: 'lena', status: 'Approved', createdAt: '2026-03-01T09:00Z', decidedAt: '2026-03-01T09:10Z' }); // 600
    await task(i1, { node: 'board', assignee: 'otto', status: 'Approved', createdAt: '2026-03-01T09:10Z', decidedAt: '2026-03-01T11:00Z' }); // 6,600
    await task(i2, { node: 'legal', assignee: 'lena', status: 'Approved', createdAt: '2026-03-01T10:00Z', decidedAt: '2026-03-01T10:30Z' }); // 1,800
    // The rejection that ended i2: nothing opened after it, the instance is Rejected → (end).
    await task(i2, {
      node: 'board',
      assignee: 'otto',
      status: 'Rejected',
      createdAt: '2026-03-01T10:30Z',
      decidedAt: '2026-03-02T10:00Z',
      comment: 'too expensive',
    }); // 84,600
    // A delegate's rejection (advice, owner set): a decision of dora's, not a rejection vote.
    await task(i3, {
      node: 'legal',
      assignee: 'dora',
      owner: 'lena',
      status: 'Rejected',
      createdAt: '2026-03-02T08:10Z',
      decidedAt: '2026-03-02T08:30Z',
      comment: 'advice',
    }); // 1,200
    // lena rejects back to legal itself: the next task to open in i3 is legal's (target legal), and waits since.
    await task(i3, {
      node: 'legal',
      assignee: 'lena',
      status: 'Rejected',
      createdAt: '2026-03-02T08:00Z',
      decidedAt: '2026-03-02T09:00Z',
      comment: 'missing annex',
    }); // 3,600
    await task(i3, { node: 'legal', assignee: 'lena', status: 'Pending', createdAt: '2026-03-02T09:00:01Z' });
    await task(i4, { node: 'manager', assignee: 'mia', status: 'Approved', createdAt: '2026-03-02T09:00Z', decidedAt: '2026-03-03T09:30Z' }); // 88,200
    await task(i5, { node: 'manager', assignee: 'mia', status: 'Cancelled', createdAt: '2026-03-03T12:00Z', decidedAt: '2026-03-03T13:00Z' }); // not a decision
    await task(i6, { node: 'legal', assignee: 'lena', status: 'Approved', createdAt: '2026-02-27T00:00Z', decidedAt: '2026-02-28T00:00Z' }); // before the period
    await task(i8, { node: 'manager', assignee: 'mia', status: 'Pending', createdAt: '2026-03-03T00:00Z' });
    // A rejection of a node still voting (nothing opened after it, instance Running) → (none); its comment is trimmed.
    await task(i8, {
      node: 'manager',
      assignee: 'ben',
      status: 'Rejected',
      createdAt: '2026-03-03T00:00Z',
      decidedAt: '2026-03-03T01:00Z',
      comment: '  missing annex ',
    }); // 3,600

    await deployment(TENANT, 'contract', 'publish', '2026-02-28T10:00Z'); // before the period
    await deployment(TENANT, 'contract', 'publish', '2026-03-01T10:00Z');
    await deployment(TENANT, 'contract', 'grayscale', '2026-03-02T10:00Z');
    await deployment(TENANT, 'contract', 'rollback', '2026-03-03T10:00Z');
    await deployment(TENANT, 'leave', 'publish', '2026-03-01T08:00Z');
    await deployment(TENANT, 'leave', 'legacy-deploy', '2026-03-02T08:00Z');
    await deployment(TENANT, 'leave', 'complete-grayscale', '2026-03-03T23:59:59Z');
    await deployment(TENANT, 'leave', 'rollback', '2026-03-04T00:00Z'); // at To: outside

    // Tenant acme-rpt: the same keys, people and days; none of it may count for rpt.
    const o1 = await instance(OTHER, 'contract', 'Approved', '2026-03-01T09:00Z', '2026-03-01T10:00Z');
    const o2 = await instance(OTHER, 'leave', 'Running', '2026-03-02T09:00Z');
    await task(o1, {
      tenantId: OTHER,
      node: 'board',
      assignee: 'otto',
      status: 'Rejected',
      createdAt: '2026-03-01T09:00Z',
      decidedAt: '2026-03-01T09:30Z',
      comment: 'too expensive',
    });
    await task(o2, { tenantId: OTHER, node: 'manager', assignee: 'mia', status: 'Pending', createdAt: '2026-02-01T00:00Z' });
    await deployment(OTHER, 'contract', 'publish', '2026-03-01T10:00Z');
  }, 120_000);
  afterAll(() => platform.stop());

  it('instances: started in the period, by definition and current status', async () => {
    const res = await query('instances', PERIOD).expect(200);
    const none = { Running: 0, Suspended: 0, Approved: 0, Rejected: 0, Withdrawn: 0, Terminated: 0, Cancelled: 0 };
    expect(res.body).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      definitionKey: null,
      totals: { total: 6, byStatus: { ...none, Running: 2, Approved: 2, Rejected: 1, Withdrawn: 1 } },
      definitions: [
        { definitionKey: 'contract', total: 3, byStatus: { ...none, Running: 1, Approved: 1, Rejected: 1 } },
        { definitionKey: 'leave', total: 3, byStatus: { ...none, Running: 1, Approved: 1, Withdrawn: 1 } },
      ],
    });
    const leave = await query('instances', { ...PERIOD, DefinitionKey: 'leave' }).expect(200);
    expect(leave.body.totals.total).toBe(3);
    expect(leave.body.definitions.map((d: { definitionKey: string }) => d.definitionKey)).toEqual(['leave']);
    // Limit bounds the rows, never the totals.
    const one = await query('instances', { ...PERIOD, Limit: 1 }).expect(200);
    expect(one.body.totals.total).toBe(6);
    expect(one.body.definitions).toHaveLength(1);
  });

  it('task-duration: average, p50, p95 and max seconds of the decided tasks by node (percentile_cont, linear)', async () => {
    const res = await query('task-duration', PERIOD).expect(200);
    // leave/manager: 88,200 and 3,600. contract/board: 6,600 and 84,600. contract/legal: 600, 1,800, 3,600 and dora's 1,200.
    expect(res.body.nodes).toEqual([
      {
        definitionKey: 'leave',
        nodeKey: 'manager',
        decided: 2,
        avgSeconds: 45_900,
        p50Seconds: 45_900,
        p95Seconds: expect.closeTo(3_600 + 0.95 * 84_600, 6),
        maxSeconds: 88_200,
      },
      {
        definitionKey: 'contract',
        nodeKey: 'board',
        decided: 2,
        avgSeconds: 45_600,
        p50Seconds: 45_600,
        p95Seconds: expect.closeTo(6_600 + 0.95 * 78_000, 6),
        maxSeconds: 84_600,
      },
      {
        definitionKey: 'contract',
        nodeKey: 'legal',
        decided: 4,
        avgSeconds: 1_800,
        p50Seconds: 1_500,
        p95Seconds: expect.closeTo(1_800 + 0.85 * 1_800, 6),
        maxSeconds: 3_600,
      },
    ]);
  });

  it('approvers: decisions per person (advice included), most first; Limit keeps the total', async () => {
    const res = await query('approvers', PERIOD).expect(200);
    expect(res.body.totalApprovers).toBe(5);
    expect(res.body.approvers).toEqual([
      { approver: 'lena', decided: 3, approved: 2, rejected: 1, avgDecisionSeconds: 2_000 },
      { approver: 'otto', decided: 2, approved: 1, rejected: 1, avgDecisionSeconds: 45_600 },
      { approver: 'ben', decided: 1, approved: 0, rejected: 1, avgDecisionSeconds: 3_600 },
      { approver: 'dora', decided: 1, approved: 0, rejected: 1, avgDecisionSeconds: 1_200 },
      { approver: 'mia', decided: 1, approved: 1, rejected: 0, avgDecisionSeconds: 88_200 },
    ]);
    const top = await query('approvers', { ...PERIOD, Limit: 2 }).expect(200);
    expect(top.body.totalApprovers).toBe(5);
    expect(top.body.approvers.map((a: { approver: string }) => a.approver)).toEqual(['lena', 'otto']);
    const leave = await query('approvers', { ...PERIOD, DefinitionKey: 'leave' }).expect(200);
    expect(leave.body.approvers.map((a: { approver: string }) => a.approver)).toEqual(['ben', 'mia']);
  });

  it('bottlenecks: the Pending tasks now by node (longest wait first) beside the decision times of the period', async () => {
    const before = Date.now();
    const res = await query('bottlenecks', PERIOD).expect(200);
    const after = Date.now();
    const waited = (since: string) => [(before - Date.parse(since)) / 1000 - 1, (after - Date.parse(since)) / 1000 + 1];
    const [legal, manager, board] = res.body.nodes;
    expect(res.body.nodes).toHaveLength(3);
    expect(legal).toMatchObject({
      definitionKey: 'contract',
      nodeKey: 'legal',
      pendingTasks: 1,
      oldestPendingSince: '2026-03-02T09:00:01.000Z',
      decidedInPeriod: 4,
    });
    expect(legal.avgDecisionSeconds).toBe(1_800);
    const [low, high] = waited('2026-03-02T09:00:01Z');
    expect(legal.maxWaitingSeconds).toBeGreaterThanOrEqual(low!);
    expect(legal.maxWaitingSeconds).toBeLessThanOrEqual(high!);
    expect(legal.avgWaitingSeconds).toBeCloseTo(legal.maxWaitingSeconds, 0);
    expect(manager).toMatchObject({
      definitionKey: 'leave',
      nodeKey: 'manager',
      pendingTasks: 1,
      oldestPendingSince: '2026-03-03T00:00:00.000Z',
      decidedInPeriod: 2,
    });
    expect(manager.avgDecisionSeconds).toBe(45_900);
    // No Pending task: after every node that has one, by its decision time.
    expect(board).toEqual({
      definitionKey: 'contract',
      nodeKey: 'board',
      pendingTasks: 0,
      oldestPendingSince: null,
      maxWaitingSeconds: null,
      avgWaitingSeconds: null,
      decidedInPeriod: 2,
      avgDecisionSeconds: 45_600,
    });
    expect(Date.parse(res.body.asOf)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('rejects: rejection votes by node, where the flow went next and the most frequent comments', async () => {
    const res = await query('rejects', PERIOD).expect(200);
    expect(res.body.totalRejections).toBe(3);
    expect(res.body.nodes).toEqual([
      {
        definitionKey: 'contract',
        nodeKey: 'board',
        rejections: 1,
        instances: 1,
        targets: [{ target: '(end)', count: 1 }],
        reasons: [{ reason: 'too expensive', count: 1 }],
      },
      {
        definitionKey: 'contract',
        nodeKey: 'legal',
        rejections: 1,
        instances: 1,
        targets: [{ target: 'legal', count: 1 }],
        reasons: [{ reason: 'missing annex', count: 1 }],
      },
      {
        definitionKey: 'leave',
        nodeKey: 'manager',
        rejections: 1,
        instances: 1,
        targets: [{ target: '(none)', count: 1 }],
        reasons: [{ reason: 'missing annex', count: 1 }],
      },
    ]);
  });

  it('trends: started, completed and the real average duration of the instances completed in each bucket', async () => {
    const daily = await query('trends', PERIOD).expect(200);
    expect(daily.body).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      definitionKey: null,
      granularity: 'Daily',
      buckets: [
        // i1 (7,200 s) and i6 (172,800 s, ended at From) completed on the 1st.
        { start: '2026-03-01T00:00:00.000Z', started: 2, completed: 2, avgDurationSeconds: 90_000 },
        { start: '2026-03-02T00:00:00.000Z', started: 2, completed: 1, avgDurationSeconds: 86_400 },
        // i5 was withdrawn: ended, not completed.
        { start: '2026-03-03T00:00:00.000Z', started: 2, completed: 1, avgDurationSeconds: 88_200 },
      ],
    });
    const contract = await query('trends', { ...PERIOD, DefinitionKey: 'contract' }).expect(200);
    expect(
      contract.body.buckets.map((b: { started: number; completed: number; avgDurationSeconds: number | null }) => [
        b.started,
        b.completed,
        b.avgDurationSeconds,
      ]),
    ).toEqual([
      [2, 2, 90_000],
      [1, 1, 86_400],
      [0, 0, null],
    ]);
    // 2026-03-01 is a Sunday: ISO weeks start on Monday, so the first bucket is the week of 23 February, cut to the period.
    const weekly = await query('trends', { ...PERIOD, Granularity: 'Weekly' }).expect(200);
    expect(weekly.body.buckets).toEqual([
      { start: '2026-02-23T00:00:00.000Z', started: 2, completed: 2, avgDurationSeconds: 90_000 },
      { start: '2026-03-02T00:00:00.000Z', started: 4, completed: 2, avgDurationSeconds: 87_300 },
    ]);
    const monthly = await query('trends', { From: '2026-02-15', To: '2026-03-04', Granularity: 'monthly' }).expect(200);
    expect(monthly.body.granularity).toBe('Monthly');
    expect(monthly.body.buckets).toEqual([
      { start: '2026-02-01T00:00:00.000Z', started: 1, completed: 0, avgDurationSeconds: null },
      { start: '2026-03-01T00:00:00.000Z', started: 6, completed: 4, avgDurationSeconds: (172_800 + 7_200 + 86_400 + 88_200) / 4 },
    ]);
    const hourly = await query('trends', { From: '2026-03-01T09:00:00Z', To: '2026-03-01T12:00:00Z', Granularity: 'Hourly' }).expect(200);
    expect(hourly.body.buckets).toEqual([
      { start: '2026-03-01T09:00:00.000Z', started: 1, completed: 0, avgDurationSeconds: null },
      { start: '2026-03-01T10:00:00.000Z', started: 1, completed: 0, avgDurationSeconds: null },
      { start: '2026-03-01T11:00:00.000Z', started: 0, completed: 1, avgDurationSeconds: 7_200 },
    ]);
  });

  it('trends: an unrecognized Granularity falls back to Daily', async () => {
    const daily = await query('trends', PERIOD).expect(200);
    for (const granularity of ['Yearly', '', 42, null]) {
      const res = await query('trends', { ...PERIOD, Granularity: granularity }).expect(200);
      expect(res.body).toEqual(daily.body);
    }
  });

  it.each([
    ['From missing', { To: '2026-03-04' }],
    ['To missing', { From: '2026-03-01' }],
    ['no body', undefined],
    ['From unparseable', { From: 'last monday', To: '2026-03-04' }],
    ['To unparseable', { From: '2026-03-01', To: '2026-02-30' }],
    ['From a number', { From: 1_772_323_200, To: '2026-03-04' }],
    ['From later than To', { From: '2026-03-04', To: '2026-03-01' }],
  ])('trends: %s → 400 Workflow.Report.PeriodInvalid on both forms', async (_what, body) => {
    expectProblem(await query('trends', body), 400, 'Workflow.Report.PeriodInvalid');
    expectProblem(await post('trends', body), 400, 'Workflow.Report.PeriodInvalid');
  });

  it('refuses periods over the limits, and a malformed query, with stable codes', async () => {
    expectProblem(await query('trends', { From: '2025-01-01', To: '2026-01-03' }), 400, 'Workflow.Report.PeriodTooLong');
    expectProblem(await query('trends', { From: '2026-01-01', To: '2026-02-02', Granularity: 'Hourly' }), 400, 'Workflow.Report.PeriodTooLong');
    expectProblem(await query('instances', { From: '2025-01-01', To: '2026-01-03' }), 400, 'Workflow.Report.PeriodTooLong');
    expectProblem(await query('instances', { From: '2026-03-04', To: '2026-03-01' }), 400, 'Workflow.Report.PeriodInvalid');
    expectProblem(await query('instances', { ...PERIOD, Limit: 501 }), 400, 'Validation.Failed');
    expectProblem(await query('instances', { ...PERIOD, DefinitionKey: 'Not A Key' }), 400, 'Validation.Failed');
    expectProblem(await query('approvers', { ...PERIOD, from: '2026-03-01' }), 400, 'Validation.Failed');
  });

  it('defaults the period of the list reports to the 30 days up to now', async () => {
    const res = await query('instances', undefined).expect(200);
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(30 * 86_400_000);
    expect(Math.abs(Date.parse(res.body.to) - Date.now())).toBeLessThan(60_000);
  });

  it('answers the same over QUERY and over the POST fallback, for every report', async () => {
    const stripClock = (body: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(body, (key, value) => (['asOf', 'maxWaitingSeconds', 'avgWaitingSeconds'].includes(key) ? undefined : value)));
    for (const name of NAMES) {
      const viaQuery = await query(name, PERIOD).expect(200);
      const viaPost = await post(name, PERIOD).expect(200);
      expect(viaQuery.headers['content-type']).toMatch(/^application\/json/);
      expect(stripClock(viaPost.body)).toEqual(stripClock(viaQuery.body));
    }
  });

  it('reads the caller’s tenant only: another tenant’s rows never count, and its TenantId is refused', async () => {
    const theirs = await query('instances', PERIOD, 'olga', OTHER).expect(200);
    expect(theirs.body.totals.total).toBe(2);
    const rejects = await query('rejects', PERIOD, 'olga', OTHER).expect(200);
    expect(rejects.body.totalRejections).toBe(1);
    const approvers = await query('approvers', PERIOD, 'olga', OTHER).expect(200);
    expect(approvers.body.approvers).toEqual([{ approver: 'otto', decided: 1, approved: 0, rejected: 1, avgDecisionSeconds: 1_800 }]);
    const deployments = await query('deployments', PERIOD, 'olga', OTHER).expect(200);
    expect(deployments.body.totals.total).toBe(1);
    // The caller's own TenantId changes nothing; another one is refused, on both forms.
    const own = await query('instances', { ...PERIOD, TenantId: TENANT }).expect(200);
    expect(own.body.totals.total).toBe(6);
    expectProblem(await query('instances', { ...PERIOD, TenantId: OTHER }), 400, 'Workflow.Report.TenantNotAllowed');
    expectProblem(await post('trends', { ...PERIOD, TenantId: OTHER }), 400, 'Workflow.Report.TenantNotAllowed');
  });

  it('deployments: binding changes by definition key and action', async () => {
    const res = await query('deployments', PERIOD).expect(200);
    const none = { publish: 0, 'legacy-deploy': 0, grayscale: 0, 'complete-grayscale': 0, rollback: 0 };
    expect(res.body).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      definitionKey: null,
      totals: { total: 6, byAction: { publish: 2, 'legacy-deploy': 1, grayscale: 1, 'complete-grayscale': 1, rollback: 1 } },
      definitions: [
        { definitionKey: 'contract', total: 3, byAction: { ...none, publish: 1, grayscale: 1, rollback: 1 }, lastAt: '2026-03-03T10:00:00.000Z' },
        {
          definitionKey: 'leave',
          total: 3,
          byAction: { ...none, publish: 1, 'legacy-deploy': 1, 'complete-grayscale': 1 },
          lastAt: '2026-03-03T23:59:59.000Z',
        },
      ],
    });
  });

  it('denies every report, in both forms, without workflow.report.view', async () => {
    for (const name of NAMES) {
      expectProblem(await query(name, PERIOD, 'nils'), 403, 'Authorization.Denied');
      expectProblem(await post(name, PERIOD, 'nils'), 403, 'Authorization.Denied');
    }
  });

  it.each(NAMES)('%s answers, on both forms, as the served OpenAPI document says', async (name) => {
    const document = await servedDocument(platform.service('workflow-engine'));
    expectConformance(document, 'query', `${REPORTS}/${name}`, await query(name, PERIOD).expect(200));
    expectConformance(document, 'post', `${REPORTS}/${name}/_query`, await post(name, PERIOD).expect(200));
  });

  it('trends: the served document marks From and To required in the query (the service refuses a query without them) and in the answer', async () => {
    const document = await servedDocument(platform.service('workflow-engine'));
    const schemas = document.components?.schemas ?? {};
    for (const operation of [document.paths[`${REPORTS}/trends`]?.['query'], document.paths[`${REPORTS}/trends/_query`]?.['post']]) {
      const body = (operation as { requestBody?: { required?: boolean; content: Record<string, { schema: { $ref: string } }> } }).requestBody;
      expect(body?.required).toBe(true);
      const query = schemas[(body?.content['application/json']?.schema.$ref ?? '').split('/').pop() ?? ''];
      expect(query?.['required']).toEqual(expect.arrayContaining(['From', 'To']));
    }
    expect(schemas['TrendsReportResponse']?.['required']).toEqual(expect.arrayContaining(['from', 'to', 'definitionKey', 'granularity', 'buckets']));
    expectProblem(await query('trends', {}), 400, 'Workflow.Report.PeriodInvalid');
  });

  it('lists both forms in the OpenAPI document (3.2: the QUERY operation and the POST fallback)', () => {
    const doc = platform.service('workflow-engine').openApi as unknown as { openapi: string; paths: Record<string, Record<string, { tags?: string[] }>> };
    expect(doc.openapi).toBe('3.2.0');
    for (const name of NAMES) {
      expect(doc.paths[`${REPORTS}/${name}`]?.['query']?.tags).toEqual(['Workflow-Reports']);
      expect(doc.paths[`${REPORTS}/${name}/_query`]?.['post']?.tags).toEqual(['Workflow-Reports']);
    }
  });
});

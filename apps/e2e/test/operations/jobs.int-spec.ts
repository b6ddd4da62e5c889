import { AuthorizationAction, OperationsRpc, permissionCode, ServiceRpc, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { JobCatalogSync, OperationsJobs } from '@lp/service/operations';
import { ServiceApp } from '@lp/platform/runtime';
import { expectConformance, servedDocument } from '../support/openapi-conformance';
import { expectProblem } from '../support/policy-platform';
import { OperationsTestPlatform } from '../support/operations-platform';

const JOB = OperationsJobs.executionRetention.jobName;
const path = (suffix = '') => `/api/operations/jobs/${JOB}${suffix}`;

interface Entry {
  jobName: string;
  source: string;
  description: string;
  cronExpression: string | null;
  enabled: boolean;
  catalogDefault: { cronExpression: string | null };
  nextRunAt: string | null;
  lastRun: { status: string; trigger: string } | null;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'operations /jobs: definitions, schedule control, manual runs and their audit', () => {
  const platform = new OperationsTestPlatform('ops-jobs', { env: { OPERATIONS_SCHEDULER_TICK_MS: '100' } });
  const row = async () =>
    (await platform.opsSql.query(`SELECT cron, interval_seconds, enabled, next_run_at FROM ops.job_definition WHERE job_name = $1`, [JOB]))[0] as {
      cron: string | null;
      interval_seconds: number | null;
      enabled: boolean;
      next_run_at: Date | null;
    };

  /** Every live job: one page of 100 (the fleet declares about 30). */
  const listAll = async (): Promise<Entry[]> => {
    const { body } = await platform.ops().get('/api/operations/jobs?pageSize=100').expect(200);
    expect(body.items).toHaveLength(body.totalCount);
    return body.items as Entry[];
  };

  beforeAll(async () => {
    await platform.start();
    const sync = await platform.operations[0]?.app.get(JobCatalogSync).syncNow();
    expect(sync?.every((s) => 'jobs' in s)).toBe(true);
  }, 90_000);
  afterAll(() => platform.stop());

  it('seeds definitions from every service catalog, idempotently, and lists them sorted with the effective schedule', async () => {
    const again = await platform.operations[0]?.app.get(JobCatalogSync).syncNow();
    expect(again?.flatMap((s) => ('changes' in s ? s.changes.inserted : []))).toEqual([]);
    const body = await listAll();
    const names = body.map((e) => e.jobName);
    expect(names).toEqual([...names].sort());
    const entry = body.find((e) => e.jobName === JOB);
    expect(entry).toEqual(
      expect.objectContaining({
        source: 'operations',
        moduleName: 'JobsModule',
        isCritical: false,
        cronExpression: '37 3 * * *',
        enabled: true,
        catalogDefault: { cronExpression: '37 3 * * *' },
        lastRun: null,
      }),
    );
    expect(Date.parse(entry?.nextRunAt ?? '')).toBeGreaterThan(Date.now());
  });

  it('pages the list and filters it by service, enabled and latest run status, all of which must hold', async () => {
    const all = await listAll();
    const list = async (query: string) =>
      (await platform.ops().get(`/api/operations/jobs?${query}`).expect(200)).body as { items: Entry[]; totalCount: number };
    const names = (entries: Entry[]) => entries.map((e) => e.jobName);
    const second = await list('pageIndex=1&pageSize=5');
    expect(second).toEqual(expect.objectContaining({ pageIndex: 1, pageSize: 5, totalCount: all.length }));
    expect(names(second.items)).toEqual(names(all.slice(5, 10)));
    const ofOperations = await list('source=operations&pageSize=100');
    expect(names(ofOperations.items)).toEqual(names(all.filter((e) => e.source === 'operations')));
    expect(ofOperations.totalCount).toBe(ofOperations.items.length);
    const retention = await list('search=%20RETENTION%20&pageSize=100');
    expect(names(retention.items)).toEqual(names(all.filter((e) => /retention/i.test(`${e.jobName} ${e.description}`))));
    expect(retention.items.length).toBeGreaterThan(3);
    // `%` and `_` are text, not patterns.
    expect((await list('search=%25')).totalCount).toBe(0);
    // A stopped job, and a latest run that failed (dated ahead, so no run of the job can come after it).
    await platform.ops().post(path('/stop')).expect(200);
    const failedRun = '00000000-0000-4000-8000-0000000000f1';
    await platform.opsSql.query(
      `INSERT INTO ops.job_execution (id, job_name, trigger, status, started_at, finished_at, actor, dispatched_by, error_code)
       VALUES ($1, $2, 'manual', 'failed', now() + interval '1 hour', now() + interval '1 hour', 'admin', 'test:1', 'Test.Failed')`,
      [failedRun, JOB],
    );
    try {
      expect(names((await list('enabled=false&pageSize=100')).items)).toContain(JOB);
      expect((await list('enabled=false&pageSize=100')).items.every((e) => !e.enabled)).toBe(true);
      expect(names((await list('enabled=true&pageSize=100')).items)).not.toContain(JOB);
      const failed = await list('lastRunStatus=failed&pageSize=100');
      expect(names(failed.items)).toContain(JOB);
      expect(failed.items.every((e) => e.lastRun?.status === 'failed')).toBe(true);
      expect(names((await list('lastRunStatus=succeeded&pageSize=100')).items)).not.toContain(JOB);
      const never = await list('lastRunStatus=none&pageSize=100');
      expect(never.items.every((e) => e.lastRun === null)).toBe(true);
      expect(names(never.items)).not.toContain(JOB);
      expect(names((await list('source=operations&enabled=false&lastRunStatus=failed')).items)).toEqual([JOB]);
      expect(await list('source=no-such-service')).toEqual({ items: [], pageIndex: 0, pageSize: 20, totalCount: 0 });
    } finally {
      await platform.opsSql.query(`DELETE FROM ops.job_execution WHERE id = $1`, [failedRun]);
      await platform.ops().post(path('/start')).expect(200);
    }
  });

  it('refuses a malformed filter with 400 naming it', async () => {
    for (const [query, field] of [
      ['enabled=yes', 'enabled'],
      ['enabled=TRUE', 'enabled'],
      ['enabled=true&enabled=false', 'enabled'],
      ['lastRunStatus=bogus', 'lastRunStatus'],
      ['source=', 'source'],
      ['search=%20', 'search'],
      [`source=${'s'.repeat(65)}`, 'source'],
      ['pageSize=101', 'pageSize'],
      ['service=operations', 'service'],
    ]) {
      const res = await platform.ops().get(`/api/operations/jobs?${query}`);
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    }
  });

  it('answers one job by name as the list shows it; an unknown name is 404', async () => {
    const { body } = await platform.ops().get(path()).expect(200);
    expect(body).toEqual((await listAll()).find((e) => e.jobName === JOB));
    expectProblem(await platform.ops().get('/api/operations/jobs/operations.no-such-job'), 404, 'NotFound');
    expectProblem(await platform.ops().get(`/api/operations/jobs/${'x'.repeat(300)}`), 404, 'NotFound');
  });

  it('soft-deletes a definition whose job left its catalog, and restores it with its schedule when it returns', async () => {
    const sync = () => platform.operations[0]?.app.get(JobCatalogSync).syncNow();
    // A job operations' catalog no longer declares (as after a release that removed it).
    await platform.opsSql.query(
      `INSERT INTO ops.job_definition (job_name, cron, interval_seconds, enabled, source, description, module_name, is_critical, timeout_seconds)
       VALUES ('operations.retired-job', NULL, 60, true, 'operations', 'gone from the code', 'JobsModule', false, 60)`,
    );
    const gone = await sync();
    expect(gone?.find((s) => s.service === 'operations')).toEqual(
      expect.objectContaining({ changes: expect.objectContaining({ softDeleted: ['operations.retired-job'] }) }),
    );
    const list = await listAll();
    expect(list.map((e) => e.jobName)).not.toContain('operations.retired-job');
    expectProblem(await platform.ops().put('/api/operations/jobs/operations.retired-job').send({ intervalSeconds: 60, enabled: true }), 404, 'NotFound');
    expectProblem(await platform.ops().get('/api/operations/jobs/operations.retired-job'), 404, 'NotFound');
    expect(
      (await platform.opsSql.query(`SELECT deleted_at IS NOT NULL AS deleted FROM ops.job_definition WHERE job_name = 'operations.retired-job'`))[0],
    ).toEqual({ deleted: true });
    // A declared job whose row was soft-deleted comes back with the schedule it had, not the default.
    await platform.opsSql.query(`UPDATE ops.job_definition SET cron = NULL, interval_seconds = 7200, deleted_at = now() WHERE job_name = $1`, [JOB]);
    const back = await sync();
    expect(back?.find((s) => s.service === 'operations')).toEqual(expect.objectContaining({ changes: expect.objectContaining({ restored: [JOB] }) }));
    const restored = await row();
    expect(restored).toEqual(expect.objectContaining({ cron: null, interval_seconds: 7200, enabled: true }));
    // Its next tick follows its own interval, not the catalog's daily cron.
    expect(Math.abs((restored.next_run_at?.getTime() ?? 0) - Date.now() - 7_200_000)).toBeLessThan(60_000);
  });

  it('marks a run whose lease ran out without an answer as abandoned, never leaving it running', async () => {
    await platform.opsSql.query(
      `INSERT INTO ops.job_execution (id, job_name, trigger, status, started_at, lease_until, actor, dispatched_by)
       VALUES ('00000000-0000-4000-8000-0000000000ab', $1, 'manual', 'running', now() - interval '10 minutes', now() - interval '1 minute', 'admin', 'dead-replica:1')`,
      [JOB],
    );
    const deadline = Date.now() + 10_000;
    let status = 'running';
    while (status === 'running' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [{ status }] = await platform.opsSql.query(`SELECT status FROM ops.job_execution WHERE id = '00000000-0000-4000-8000-0000000000ab'`);
    }
    expect(status).toBe('abandoned');
    const [row] = await platform.opsSql.query(
      `SELECT error_code, finished_at IS NOT NULL AS finished FROM ops.job_execution WHERE id = '00000000-0000-4000-8000-0000000000ab'`,
    );
    expect(row).toEqual({ error_code: 'Job.Abandoned', finished: true });
  });

  it('PUT replaces all three fields and answers the entry; the list then shows the persisted schedule, not the default', async () => {
    const { body } = await platform.ops().put(path()).send({ cronExpression: null, intervalSeconds: 3600, enabled: false }).expect(200);
    expect(body).toEqual(
      expect.objectContaining({ cronExpression: 'interval:3600s', enabled: false, nextRunAt: null, catalogDefault: { cronExpression: '37 3 * * *' } }),
    );
    const list = await listAll();
    expect(list.find((e) => e.jobName === JOB)).toEqual(expect.objectContaining({ cronExpression: 'interval:3600s', enabled: false }));
    // What the list shows can be sent back as it is.
    await platform.ops().put(path()).send({ cronExpression: 'interval:3600s', enabled: true }).expect(200);
    expect(await row()).toEqual(expect.objectContaining({ cron: null, interval_seconds: 3600, enabled: true }));
    const trimmed = await platform.ops().put(path()).send({ cronExpression: '  0 */2 * * *  ', intervalSeconds: null, enabled: true }).expect(200);
    expect(trimmed.body.cronExpression).toBe('0 */2 * * *');
  });

  it('refuses a bad schedule with its code and writes nothing', async () => {
    await platform.ops().put(path()).send({ cronExpression: '15 4 * * *', intervalSeconds: null, enabled: true }).expect(200);
    const before = await row();
    const cases: Array<[object, number, string]> = [
      [{ cronExpression: '* * * * *', intervalSeconds: 60, enabled: true }, 409, 'ScheduleConflict'],
      [{ cronExpression: null, intervalSeconds: null, enabled: true }, 422, 'ScheduleRequired'],
      [{ intervalSeconds: 0, enabled: true }, 400, 'Validation.Failed'],
      [{ intervalSeconds: -5, enabled: false }, 400, 'Validation.Failed'],
      [{ intervalSeconds: 1.5, enabled: true }, 400, 'Validation.Failed'],
      [{ cronExpression: `${'1,'.repeat(80)}1 * * * *`, enabled: true }, 400, 'ScheduleInvalid'],
      [{ cronExpression: 'every day at noon', enabled: true }, 400, 'ScheduleInvalid'],
      [{ cronExpression: '61 * * * *', enabled: true }, 400, 'ScheduleInvalid'],
      [{ cronExpression: '* * * * *' }, 400, 'Validation.Failed'],
    ];
    for (const [body, status, code] of cases) {
      const res = await platform.ops().put(path()).send(body);
      expectProblem(res, status, code);
    }
    expect(await row()).toEqual(before);
    expectProblem(await platform.ops().put('/api/operations/jobs/nobody.no-such-job').send({ intervalSeconds: 60, enabled: true }), 404, 'NotFound');
  });

  it('stop and start keep cron and interval; start without a schedule is ScheduleRequired; unknown jobs are NotFound', async () => {
    await platform.ops().put(path()).send({ intervalSeconds: 900, enabled: true }).expect(200);
    const stopped = await platform.ops().post(path('/stop')).expect(200);
    expect(stopped.body).toEqual(expect.objectContaining({ enabled: false, cronExpression: 'interval:900s', nextRunAt: null }));
    const started = await platform.ops().post(path('/start')).expect(200);
    expect(started.body).toEqual(expect.objectContaining({ enabled: true, cronExpression: 'interval:900s' }));
    expect(Date.parse(started.body.nextRunAt)).toBeGreaterThan(Date.now());
    // Started again while enabled: the next tick stays where it was.
    expect((await platform.ops().post(path('/start')).expect(200)).body.nextRunAt).toBe(started.body.nextRunAt);
    await platform.ops().put(path()).send({ enabled: false }).expect(200);
    expectProblem(await platform.ops().post(path('/start')), 422, 'ScheduleRequired');
    expect(await row()).toEqual(expect.objectContaining({ cron: null, interval_seconds: null, enabled: false }));
    for (const action of ['stop', 'start', 'run'])
      expectProblem(await platform.ops().post(`/api/operations/jobs/nobody.no-such-job/${action}`), 404, 'NotFound');
    expectProblem(await platform.ops().get('/api/operations/jobs/nobody.no-such-job/executions'), 404, 'NotFound');
  });

  it('two racing PUTs: the last writer wins whole, never a mix of the two', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([
        platform
          .ops()
          .put(path())
          .send({ cronExpression: `${round} 1 * * *`, enabled: true }),
        platform
          .ops()
          .put(path())
          .send({ intervalSeconds: 600 + round, enabled: false }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const final = await row();
      const cronWon = { cron: `${round} 1 * * *`, interval_seconds: null, enabled: true };
      const intervalWon = { cron: null, interval_seconds: 600 + round, enabled: false };
      expect([cronWon, intervalWon]).toContainEqual({ cron: final.cron, interval_seconds: final.interval_seconds, enabled: final.enabled });
    }
  });

  it('runs a stopped job by hand, audits the run, and lists executions newest first', async () => {
    await platform.ops().put(path()).send({ cronExpression: '0 4 * * *', enabled: false }).expect(200);
    const first = await platform.ops().post(path('/run')).set('X-Correlation-Id', 'manual-run-1').expect(200);
    expect(first.body).toEqual(expect.objectContaining({ status: 'succeeded', detail: expect.stringMatching(/executions older than 30 days deleted/) }));
    expect(first.body.execution).toEqual(
      expect.objectContaining({ jobName: JOB, trigger: 'manual', status: 'succeeded', actor: 'admin', correlationId: 'manual-run-1', scheduledFor: null }),
    );
    expect(Object.keys(first.body).sort()).toEqual(['detail', 'execution', 'status']);
    expect(Date.parse(first.body.execution.ownerStartedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.execution.startedAt));
    const second = await platform.ops().post(path('/run')).expect(200);
    const page = await platform
      .ops()
      .get(`${path('/executions')}?pageSize=1`)
      .expect(200);
    expect(page.body).toEqual(expect.objectContaining({ pageIndex: 0, pageSize: 1, totalCount: expect.any(Number) }));
    expect(page.body.items.map((e: { executionId: string }) => e.executionId)).toEqual([second.body.execution.executionId]);
    const list = await listAll();
    expect(list.find((e) => e.jobName === JOB)?.lastRun).toEqual(expect.objectContaining({ status: 'succeeded', trigger: 'manual' }));
    expect(await row()).toEqual(expect.objectContaining({ enabled: false }));
  });

  it('audits an exception as a failure and rethrows it as problem+json', async () => {
    await platform.opsSql.query(
      `CREATE FUNCTION ops.refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'deletes refused by the test'; END $$`,
    );
    await platform.opsSql.query(`CREATE TRIGGER refuse_delete BEFORE DELETE ON ops.job_execution FOR EACH STATEMENT EXECUTE FUNCTION ops.refuse_delete()`);
    try {
      const res = await platform.ops().post(path('/run'));
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      const [audit] = await platform.opsSql.query(`SELECT status, error_code FROM ops.job_execution WHERE job_name = $1 ORDER BY started_at DESC LIMIT 1`, [
        JOB,
      ]);
      expect(audit).toEqual({ status: 'failed', error_code: res.body.code });
    } finally {
      await platform.opsSql.query(`DROP TRIGGER refuse_delete ON ops.job_execution; DROP FUNCTION ops.refuse_delete()`);
    }
  });

  it('a broken audit sink changes nothing: the run still happens and answers as it would', async () => {
    await platform.opsSql.query(`CREATE FUNCTION ops.refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit sink down'; END $$`);
    await platform.opsSql.query(`CREATE TRIGGER refuse_audit BEFORE INSERT OR UPDATE ON ops.job_execution FOR EACH ROW EXECUTE FUNCTION ops.refuse_audit()`);
    try {
      const before = (await platform.opsSql.query(`SELECT count(*)::int AS n FROM ops.job_execution`))[0].n;
      const res = await platform.ops().post(path('/run')).expect(200);
      expect(res.body.status).toBe('succeeded');
      expect((await platform.opsSql.query(`SELECT count(*)::int AS n FROM ops.job_execution`))[0].n).toBe(before);
    } finally {
      await platform.opsSql.query(`DROP TRIGGER refuse_audit ON ops.job_execution; DROP FUNCTION ops.refuse_audit()`);
    }
  });

  it('answers as the served OpenAPI document says: a never-run job (lastRun null), a run one, and the manual run', async () => {
    const document = await servedDocument(platform.operations[0] as ServiceApp);
    const never = await platform.ops().get('/api/operations/jobs?lastRunStatus=none&pageSize=5').expect(200);
    expect(never.body.items[0]?.lastRun).toBeNull();
    expectConformance(document, 'get', '/api/operations/jobs', never);
    const run = await platform.ops().post(path('/run')).expect(200);
    expectConformance(document, 'post', '/api/operations/jobs/{jobName}/run', run);
    const ran = await platform.ops().get(path()).expect(200);
    expect(ran.body.lastRun).toEqual(expect.objectContaining({ executionId: run.body.execution.executionId }));
    expectConformance(document, 'get', '/api/operations/jobs/{jobName}', ran);
    expectConformance(
      document,
      'get',
      '/api/operations/jobs/{jobName}',
      await platform.ops().get(`/api/operations/jobs/${never.body.items[0].jobName}`).expect(200),
    );
  });

  describe('permissions', () => {
    beforeAll(() => platform.grantRole('default', 'viewer', 'job-viewer', [permissionCode('operations', 'jobs', AuthorizationAction.View)]));

    it('denies every route to a caller without the job permissions', async () => {
      const nobody = platform.ops('nobody');
      expectProblem(await nobody.get('/api/operations/jobs'), 403, 'Authorization.Denied');
      expectProblem(await nobody.get(path()), 403, 'Authorization.Denied');
      expectProblem(await nobody.get(path('/executions')), 403, 'Authorization.Denied');
      expectProblem(await nobody.put(path()).send({ intervalSeconds: 60, enabled: true }), 403, 'Authorization.Denied');
      for (const action of ['stop', 'start', 'run']) expectProblem(await nobody.post(path(`/${action}`)), 403, 'Authorization.Denied');
    });

    it('operations.jobs.view reads but does not write or run', async () => {
      const viewer = platform.ops('viewer');
      await viewer.get('/api/operations/jobs').expect(200);
      await viewer.get(path()).expect(200);
      await viewer.get(path('/executions')).expect(200);
      expectProblem(await viewer.put(path()).send({ intervalSeconds: 60, enabled: true }), 403, 'Authorization.Denied');
      expectProblem(await viewer.post(path('/run')), 403, 'Authorization.Denied');
    });

    it("the owner's RPC handlers decide too: a caller without the permission cannot read a catalog or run a job over the broker", async () => {
      const rpc = platform.policy.app.get(RpcClient);
      const nobody: TrustedCaller = { kind: 'user', subject: 'nobody', tenantId: 'default', scopes: [], claimsDigest: 'nobody' };
      await expect(rpc.call(ServiceRpc.jobCatalog('policy-management'), { caller: nobody, payload: {} })).rejects.toMatchObject({
        problem: { status: 403, code: 'Authorization.Denied' },
      });
      const run = { jobName: JOB, trigger: 'manual' as const, executionId: '00000000-0000-4000-8000-000000000001' };
      await expect(rpc.call(ServiceRpc.runJob('operations'), { caller: nobody, payload: run })).rejects.toMatchObject({
        problem: { status: 403, code: 'Authorization.Denied' },
      });
    });

    it('operations.jobs.list and operations.jobs.trigger answer as the routes do, decided for the caller in the message', async () => {
      const rpc = platform.policy.app.get(RpcClient);
      const caller = (subject: string): TrustedCaller => ({ kind: 'user', subject, tenantId: 'default', scopes: [], claimsDigest: subject });
      const listed = await listAll();
      const overRpc = await rpc.call(OperationsRpc.listJobs, { caller: caller('viewer'), payload: {} });
      expect(overRpc.map((j) => j.jobName)).toEqual(listed.map((j) => j.jobName));

      for (const subject of ['nobody', 'viewer']) {
        await expect(rpc.call(OperationsRpc.runJob, { caller: caller(subject), payload: { jobName: JOB } })).rejects.toMatchObject({
          problem: { status: 403, code: 'Authorization.Denied' },
        });
      }
      await expect(rpc.call(OperationsRpc.listJobs, { caller: caller('nobody'), payload: {} })).rejects.toMatchObject({
        problem: { status: 403, code: 'Authorization.Denied' },
      });

      const ran = await rpc.call(OperationsRpc.runJob, { caller: caller('admin'), payload: { jobName: JOB } });
      expect(ran).toMatchObject({ status: 'succeeded', execution: { jobName: JOB, trigger: 'manual', actor: 'admin', status: 'succeeded' } });
      await expect(rpc.call(OperationsRpc.runJob, { caller: caller('admin'), payload: { jobName: 'operations.no-such-job' } })).rejects.toMatchObject({
        problem: { status: 404 },
      });
    });
  });

  // Issue 31: every bootstrapped tenant-admin could stop, re-schedule and run the fleet's jobs and
  // read every execution. The jobs are the platform's: both permissions are platform-level.
  describe("a tenant administrator of another tenant: the fleet's jobs are the platform's", () => {
    const FLEET_JOBS = ['workflow-engine.node-timeouts', 'policy-management.change-log-retention', JOB];
    // ian: bootstrapped by POST /tenants, as any new tenant's administrator is; ann: a role holding
    // every catalog code, platform-level ones included (rows granted before the level, or around the API).
    const TENANT_ADMINS = [
      ['ian', 'initech'],
      ['ann', 'acme'],
    ] as const;
    const state = async () => ({
      definitions: await platform.opsSql.query(
        `SELECT job_name, cron, interval_seconds, enabled, next_run_at FROM ops.job_definition WHERE job_name = ANY($1) ORDER BY job_name`,
        [FLEET_JOBS],
      ),
      executions: (await platform.opsSql.query(`SELECT count(*)::int AS n FROM ops.job_execution`))[0].n as number,
    });

    beforeAll(async () => {
      await platform.ops().post('/api/operations/tenants').send({ id: 'initech', name: 'Initech', adminSubject: 'ian' }).expect(201);
      await platform.seedTenantAdmin('acme', 'ann');
    });

    it.each(TENANT_ADMINS)('%s of %s: every /jobs route answers 403 and nothing changes', async (sub, tenantId) => {
      // The administrator administers its own tenant...
      await platform.as(sub, tenantId).get('/api/authorization/roles').expect(200);
      const before = await state();
      const admin = platform.ops(sub, tenantId);
      expectProblem(await admin.get('/api/operations/jobs'), 403, 'Authorization.Denied');
      for (const job of FLEET_JOBS) {
        const at = (suffix = '') => `/api/operations/jobs/${job}${suffix}`;
        expectProblem(await admin.get(at()), 403, 'Authorization.Denied');
        expectProblem(await admin.get(at('/executions')), 403, 'Authorization.Denied');
        expectProblem(await admin.put(at()).send({ cronExpression: '0 0 1 1 *', enabled: true }), 403, 'Authorization.Denied');
        for (const action of ['stop', 'start', 'run']) expectProblem(await admin.post(at(`/${action}`)), 403, 'Authorization.Denied');
      }
      expect(await state()).toEqual(before);
    });

    it.each(TENANT_ADMINS)('%s of %s: the operations RPCs and every owner’s job RPCs are denied, and nothing runs', async (sub, tenantId) => {
      const rpc = platform.policy.app.get(RpcClient);
      const caller: TrustedCaller = { kind: 'user', subject: sub, tenantId, scopes: [], claimsDigest: `${tenantId}:${sub}` };
      const denied = { problem: { status: 403, code: 'Authorization.Denied' } };
      const before = await state();
      await expect(rpc.call(OperationsRpc.listJobs, { caller, payload: {} })).rejects.toMatchObject(denied);
      for (const jobName of FLEET_JOBS) await expect(rpc.call(OperationsRpc.runJob, { caller, payload: { jobName } })).rejects.toMatchObject(denied);
      for (const [service, jobName] of [
        ['workflow-engine', 'workflow-engine.node-timeouts'],
        ['policy-management', 'policy-management.change-log-retention'],
      ] as const) {
        await expect(rpc.call(ServiceRpc.jobCatalog(service), { caller, payload: {} })).rejects.toMatchObject(denied);
        const run = { jobName, trigger: 'manual' as const, executionId: '00000000-0000-4000-8000-000000000031' };
        await expect(rpc.call(ServiceRpc.runJob(service), { caller, payload: run })).rejects.toMatchObject(denied);
      }
      expect(await state()).toEqual(before);
    });

    it.each(TENANT_ADMINS)('%s of %s: /me/permissions lists neither job permission, so the console shows no Jobs screen', async (sub, tenantId) => {
      const { body } = await platform.as(sub, tenantId).get('/api/authorization/me/permissions').expect(200);
      expect(body.codes).toEqual(expect.arrayContaining(['authorization.role.view']));
      expect(body.codes).not.toContain(permissionCode('operations', 'jobs', AuthorizationAction.View));
      expect(body.codes).not.toContain(permissionCode('operations', 'jobs', AuthorizationAction.Manage));
    });

    it('the platform administrator still controls them', async () => {
      await platform.ops().get('/api/operations/jobs').expect(200);
      await platform.ops().get(`/api/operations/jobs/policy-management.change-log-retention`).expect(200);
      await platform.ops().get(`/api/operations/jobs/policy-management.change-log-retention/executions`).expect(200);
    });
  });
});

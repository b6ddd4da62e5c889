import { DataSource } from 'typeorm';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';
import { approval, DEFS, RUNTIME } from '../support/workflow-routes';

const MGMT = '/api/workflow/management';
const DESIGN = ['workflow.definition.view', 'workflow.definition.update', 'workflow.definition.manage'];
const START = ['workflow.instance.create', 'workflow.instance.view', 'workflow.task.view', 'workflow.instance.update'];
const APPROVE = ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject', 'workflow.instance.view'];
const ADMIN = ['workflow.management.manage', 'workflow.instance.manage', 'workflow.instance.view', 'workflow.task.view'];
const REVIEWERS = 'wf-reviewer';

/** anna, ben and carl (all), then dora. */
const trio = { name: 'Trio', nodes: [approval('trio', ['anna', 'ben', 'carl'], { mode: 'all' }), approval('after', ['dora'])] };
/** The parallel reviews fin | desk, then the board. */
const split = {
  name: 'Split',
  nodes: [
    { kind: 'parallel', key: 'reviews', branches: [{ nodes: [approval('fin', ['finn'])] }, { nodes: [approval('desk', ['dora'])] }] },
    approval('board', ['anna']),
  ],
};
const either = { name: 'Either', nodes: [approval('either', ['carl', 'dora'], { mode: 'any' })] };
/** Every member of the role votes (all), then dora signs. */
const reviewed = {
  name: 'Reviewed',
  nodes: [{ kind: 'approval', key: 'review', mode: 'all', assignees: [{ kind: 'role', role: REVIEWERS }] }, approval('sign', ['dora'])],
};
const solo = (name: string) => ({ name, nodes: [approval('solo', ['anna'])] });

interface Task {
  id: string;
  nodeKey: string;
  assignee: string;
  status: string;
  visit: number;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: management routes over HTTP', () => {
  const platform = new OperationsTestPlatform('wfmgmt', { env: { USER_POLICY_LIMIT: '100000' } });
  let sql: DataSource;
  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));
  const n = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params))[0].n);
  const events = (type: string, id: string) =>
    n(
      `SELECT count(*)::int AS n FROM workflow.outbox_message WHERE event_type = $1
        AND (envelope->'payload'->>'instanceId' = $2 OR envelope->'payload'->>'definitionId' = $2)`,
      [type, id],
    );
  const audits = (column: 'instance_id' | 'definition_id', id: string): Promise<Array<Record<string, unknown>>> =>
    sql.query(`SELECT * FROM workflow.admin_audit WHERE ${column} = $1 ORDER BY created_at`, [id]);
  /** Everything a management write can leave behind. */
  const written = async () => ({
    instances: await n(`SELECT count(*)::int AS n FROM workflow.instance`),
    tasks: await n(`SELECT count(*)::int AS n FROM workflow.task`),
    open: await n(`SELECT count(*)::int AS n FROM workflow.task WHERE status = 'Pending'`),
    versions: await n(`SELECT count(*)::int AS n FROM workflow.definition_version`),
    bindings: await n(`SELECT count(*)::int AS n FROM workflow.definition_binding`),
    instanceVersions: await n(`SELECT coalesce(sum(version), 0)::int AS n FROM workflow.instance`),
    imports: await n(`SELECT count(*)::int AS n FROM workflow.legacy_import`),
    outbox: await n(`SELECT count(*)::int AS n FROM workflow.outbox_message`),
    audit: await n(`SELECT count(*)::int AS n FROM workflow.admin_audit`),
  });
  const tasksOf = async (id: string, tenantId = 'default'): Promise<Task[]> =>
    sql.query(
      `SELECT id, node_key AS "nodeKey", assignee, status, visit FROM workflow.task WHERE instance_id = $1 AND tenant_id = $2 ORDER BY created_at, seq`,
      [id, tenantId],
    );
  const pending = async (id: string) => (await tasksOf(id)).filter((t) => t.status === 'Pending');
  const taskOf = async (id: string, assignee: string): Promise<Task> => {
    const task = (await pending(id)).find((t) => t.assignee === assignee);
    if (!task) throw new Error(`no pending task for ${assignee} in ${id}`);
    return task;
  };
  const statusOf = async (id: string) =>
    ((await sql.query(`SELECT status FROM workflow.instance WHERE id = $1`, [id]))[0] as { status: string } | undefined)?.status;
  const complete = (sub: string, task: Task) => as(sub).post(`${RUNTIME}/tasks/${task.id}/complete`).send({});
  const start = (key: string, businessKey: string, sub = 'ina', tenantId = 'default') =>
    as(sub, tenantId).post(`${RUNTIME}/instances`).send({ definitionKey: key, businessKey, variables: {} });
  const publish = async (key: string, definition: object, sub = 'wanda', tenantId = 'default'): Promise<string> =>
    (await as(sub, tenantId).post(`${DEFS}/${key}/deployments`).send({ definition }).expect(201)).body.version.id;
  const importAs = (body: object, sub = 'admin') => as(sub).post(`${MGMT}/import`).send(body);
  const versionId = async (key: string, version: number, tenantId = 'default'): Promise<string> =>
    (await sql.query(`SELECT id FROM workflow.definition_version WHERE tenant_id = $1 AND key = $2 AND version = $3`, [tenantId, key, version]))[0].id;
  const roleId = async (name: string): Promise<string> =>
    (await platform.sql.query(`SELECT id FROM authz.role WHERE tenant_id = 'default' AND name = $1`, [name]))[0].id;
  const assignRole = async (subject: string) =>
    platform
      .as()
      .post(`/api/authorization/users/${subject}/roles/${await roleId(REVIEWERS)}`)
      .expect(204);
  const revokeRole = async (subject: string) =>
    platform
      .as()
      .delete(`/api/authorization/users/${subject}/roles/${await roleId(REVIEWERS)}`)
      .expect(204);

  beforeAll(async () => {
    await platform.start();
    sql = platform.service('workflow-engine').app.get(DataSource);
    await platform.grantRoles('default', [
      { subject: 'wanda', role: 'workflow-designer', codes: DESIGN },
      { subject: 'ina', role: 'workflow-starter', codes: [...START, ...APPROVE] },
      { subject: 'mia', role: 'workflow-admin', codes: ADMIN },
      ...['anna', 'ben', 'carl', 'dora', 'finn'].map((subject) => ({ subject, role: 'workflow-approver', codes: APPROVE })),
      ...['rex', 'rosa'].map((subject) => ({ subject, role: REVIEWERS, codes: APPROVE })),
      { subject: 'ruth', role: 'workflow-approver', codes: APPROVE },
      { subject: 'nora', role: 'case-reader', codes: ['cases.case.view'] },
    ]);
    await platform.grantRole('acme', 'alice', 'workflow-all', [...DESIGN, ...START, ...APPROVE, ...ADMIN]);
    await platform.seedTenantAdmin('globex', 'gus');
    for (const [key, definition] of Object.entries({ trio, split, either, reviewed })) await publish(key, definition);
    await publish('trio', trio, 'alice', 'acme');
    await publish('trio', trio, 'gus', 'globex');
  }, 120_000);
  afterAll(() => platform.stop());

  describe('permissions', () => {
    it('refuses every route to a caller without the permission with 403, and writes nothing', async () => {
      const id = (await start('trio', 'PERM-1').expect(201)).body.id;
      const task = (await pending(id))[0]!;
      const before = await written();
      const nora = as('nora');
      expectProblem(await nora.get(`${MGMT}/statistics`), 403, 'Authorization.Denied');
      expectProblem(await nora.post(`${MGMT}/import`).send({}), 403, 'Authorization.Denied');
      expectProblem(await nora.delete(`${MGMT}/definitions/${await versionId('trio', 1)}`), 403, 'Authorization.Denied');
      expectProblem(await nora.delete(`${MGMT}/instances/${id}`), 403, 'Authorization.Denied');
      expectProblem(await nora.post(`${MGMT}/tasks/${task.id}/refresh-candidates`), 403, 'Authorization.Denied');
      expectProblem(await nora.post(`${MGMT}/roles/${REVIEWERS}/refresh-candidates`), 403, 'Authorization.Denied');
      // The runtime's administrators do not hold the management permission by that alone.
      expectProblem(await as('ina').get(`${MGMT}/statistics`), 403, 'Authorization.Denied');
      expect(await written()).toEqual(before);
    });

    it('refuses the import to a tenant-level administrator (mia) and to another tenant’s administrator holding every code (platform level)', async () => {
      const body = legacy({ sourceId: 'PERM-IMP', businessKey: 'PERM-IMP' });
      const before = await written();
      expectProblem(await importAs(body, 'mia'), 403, 'Authorization.Denied');
      expectProblem(
        await as('gus', 'globex')
          .post(`${MGMT}/import`)
          .send({ ...body, tenantId: 'globex' }),
        403,
        'Authorization.Denied',
      );
      expect(await written()).toEqual(before);
    });

    it('applies the `workflow.runtime` gate to the writes (the caller’s tenant, and for the import the tenant it names)', async () => {
      const toggle = (enabled: boolean) =>
        platform.as('gus', 'globex').put('/api/authorization/features/workflow.runtime').send({ enabled, scope: 'tenant' }).expect(200);
      const id = (await start('trio', 'FEAT-1', 'gus', 'globex').expect(201)).body.id;
      await as('gus', 'globex').post(`${RUNTIME}/instances/${id}/cancel`).send({}).expect(200);
      await toggle(false);
      try {
        const off = await eventually(
          () => as('gus', 'globex').delete(`${MGMT}/instances/${id}`),
          (res) => res.status === 403,
          10_000,
        );
        expectProblem(off, 403, 'Feature.Disabled');
        const imported = await eventually(
          () => importAs(legacy({ tenantId: 'globex', sourceId: 'FEAT-IMP', businessKey: 'FEAT-IMP', definitionKey: 'trio', version: 1 })),
          (res) => res.status === 403,
          10_000,
        );
        expectProblem(imported, 403, 'Feature.Disabled');
        expect(await n(`SELECT count(*)::int AS n FROM workflow.legacy_import WHERE tenant_id = 'globex'`)).toBe(0);
        // Reads are not writes: statistics still answer.
        await as('gus', 'globex').get(`${MGMT}/statistics`).expect(200);
      } finally {
        await toggle(true);
      }
      await eventually(
        () => as('gus', 'globex').delete(`${MGMT}/instances/${id}`),
        (res) => res.status === 200,
        10_000,
      );
    });
  });

  /** An Approved trio instance: the three votes, then dora's. */
  function legacy(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      sourceId: 'LEG-1',
      tenantId: 'default',
      definitionKey: 'trio',
      version: 1,
      businessKey: 'LEG-1',
      initiator: 'ina',
      status: 'Approved',
      variables: { amount: 12 },
      createdAt: '2024-03-01T09:00:00Z',
      endedAt: '2024-03-04T17:00:00Z',
      tasks: [
        { nodeKey: 'trio', assignee: 'anna', status: 'Approved', decidedBy: 'anna', decidedAt: '2024-03-02T10:00:00Z', comment: 'ok' },
        { nodeKey: 'trio', assignee: 'ben', status: 'Approved', decidedBy: 'ben', decidedAt: '2024-03-02T11:00:00Z' },
        { nodeKey: 'trio', assignee: 'carl', status: 'Approved', decidedBy: 'carl', decidedAt: '2024-03-03T09:00:00Z' },
        { nodeKey: 'after', assignee: 'dora', status: 'Approved', decidedBy: 'dora', decidedAt: '2024-03-04T17:00:00Z' },
      ],
      ...overrides,
    };
  }

  describe('legacy import', () => {
    it('imports an ended instance into the tenant the body names, audited there with its event; the same body again answers it (200) and changes nothing', async () => {
      const body = legacy({ tenantId: 'acme', sourceId: 'ACME-7', businessKey: 'ACME-7' });
      const res = await importAs(body).expect(201);
      const id = res.body.id;
      expect(res.body).toMatchObject({
        definitionKey: 'trio',
        definitionId: await versionId('trio', 1, 'acme'),
        businessKey: 'ACME-7',
        initiator: 'ina',
        status: 'Approved',
        variables: { amount: 12 },
        createdAt: '2024-03-01T09:00:00.000Z',
        endedAt: '2024-03-04T17:00:00.000Z',
      });
      // It lives in acme: acme reads it, the platform tenant does not.
      const progress = (await as('alice', 'acme').get(`${RUNTIME}/instances/${id}/progress`).expect(200)).body;
      expect(progress.nodes.map((node: { key: string; state: string }) => `${node.key}:${node.state}`)).toEqual(['trio:passed', 'after:passed']);
      expect((await tasksOf(id, 'acme')).map((t) => `${t.nodeKey}:${t.assignee}:${t.status}`).sort()).toEqual([
        'after:dora:Approved',
        'trio:anna:Approved',
        'trio:ben:Approved',
        'trio:carl:Approved',
      ]);
      expectProblem(await as('mia').get(`${RUNTIME}/instances/${id}/progress`), 404, 'NotFound');
      expect(await audits('instance_id', id)).toEqual([
        expect.objectContaining({
          tenant_id: 'acme',
          operation: 'import-instance',
          subject: 'admin',
          before: null,
          after: expect.objectContaining({ sourceId: 'ACME-7', status: 'Approved', tasks: 4, open: [] }),
          correlation_id: expect.any(String),
        }),
      ]);
      const [event] = await sql.query(
        `SELECT envelope FROM workflow.outbox_message WHERE event_type = 'workflow.management.instance-imported' AND envelope->'payload'->>'instanceId' = $1`,
        [id],
      );
      expect(event.envelope.tenantId).toBe('acme');
      expect(event.envelope.payload).toMatchObject({ tenantId: 'acme', sourceId: 'ACME-7', status: 'Approved', tasks: 4, by: 'admin' });

      const before = await written();
      const again = await importAs(body).expect(200);
      expect(again.body.id).toBe(id);
      // Key order is no difference: the body is compared canonically.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      expect((await importAs(reordered).expect(200)).body.id).toBe(id);
      expect(await written()).toEqual(before);
    });

    it('answers another body under an imported source id with 409 Workflow.Import.SourceConflict, and writes nothing', async () => {
      await importAs(legacy({ sourceId: 'SRC-9', businessKey: 'SRC-9' })).expect(201);
      const before = await written();
      const res = await importAs(legacy({ sourceId: 'SRC-9', businessKey: 'SRC-9', variables: { amount: 13 } }));
      expectProblem(res, 409, 'Workflow.Import.SourceConflict');
      expect(res.body.title).toEqual(expect.any(String));
      expect(await written()).toEqual(before);
    });

    it('imports a running instance at its open tasks, and the runtime moves it on from there', async () => {
      const res = await importAs(
        legacy({
          sourceId: 'RUN-1',
          businessKey: 'RUN-1',
          status: 'Running',
          endedAt: null,
          tasks: [
            { nodeKey: 'trio', assignee: 'anna', status: 'Approved', decidedBy: 'anna', decidedAt: '2024-03-02T10:00:00Z' },
            { nodeKey: 'trio', assignee: 'ben', status: 'Pending' },
            { nodeKey: 'trio', assignee: 'zed', status: 'Transferred', decidedBy: 'zed', decidedAt: '2024-03-02T09:00:00Z' },
            { nodeKey: 'trio', assignee: 'carl', status: 'Pending' },
          ],
        }),
      ).expect(201);
      const id = res.body.id;
      expect(res.body).toMatchObject({ status: 'Running', endedAt: null, version: 1 });
      expect(await events('workflow.task.created', id)).toBe(2);
      expect((await complete('ben', await taskOf(id, 'ben')).expect(200)).body.nodeClosed).toBe(false);
      expect((await complete('carl', await taskOf(id, 'carl')).expect(200)).body.nodeClosed).toBe(true);
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}`)).toEqual(['after:dora']);
      await complete('dora', await taskOf(id, 'dora')).expect(200);
      expect(await statusOf(id)).toBe('Approved');
    });

    it('imports open work in one branch of a parallel gateway: the ended branches count as arrived at its join', async () => {
      const id = (
        await importAs({
          ...legacy({ sourceId: 'PAR-1', businessKey: 'PAR-1', definitionKey: 'split', status: 'Running', endedAt: null }),
          tasks: [
            { nodeKey: 'desk', assignee: 'dora', status: 'Approved', decidedBy: 'dora', decidedAt: '2024-03-02T10:00:00Z' },
            { nodeKey: 'fin', assignee: 'finn', status: 'Pending' },
          ],
        }).expect(201)
      ).body.id;
      await complete('finn', await taskOf(id, 'finn')).expect(200);
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}`)).toEqual(['board:anna']);
    });

    it('names the definition by id too, and refuses a version the tenant does not have with 422 per field', async () => {
      const byId = legacy({ sourceId: 'ID-1', businessKey: 'ID-1', definitionKey: undefined, version: undefined, definitionId: await versionId('trio', 1) });
      await importAs(byId).expect(201);
      const before = await written();
      const missing = await importAs(legacy({ sourceId: 'ID-2', businessKey: 'ID-2', version: 99 }));
      expectProblem(missing, 422, 'Workflow.Import.Invalid');
      expect(missing.body.errors).toEqual({ version: [expect.stringContaining('does not exist in tenant "default"')] });
      const foreign = await importAs(
        legacy({ sourceId: 'ID-3', businessKey: 'ID-3', definitionKey: undefined, version: undefined, definitionId: await versionId('trio', 1, 'acme') }),
      );
      expectProblem(foreign, 422, 'Workflow.Import.Invalid');
      expect(Object.keys(foreign.body.errors)).toEqual(['definitionId']);
      expect(await written()).toEqual(before);
    });

    it('refuses tasks that do not fit the version with 422 Workflow.Import.Invalid naming each task, and writes nothing', async () => {
      const before = await written();
      const nodes = await importAs(
        legacy({
          sourceId: 'BAD-1',
          businessKey: 'BAD-1',
          tasks: [
            { nodeKey: 'nowhere', assignee: 'anna', status: 'Approved', decidedBy: 'anna', decidedAt: '2024-03-02T10:00:00Z' },
            { nodeKey: 'reviews', definitionKey: 'x', assignee: 'anna', status: 'Approved', decidedBy: 'anna', decidedAt: '2024-03-02T10:00:00Z' },
          ],
        }),
      );
      // An unknown field is the schema's 400 first.
      expectProblem(nodes, 400, 'Validation.Failed');
      const wrong = await importAs(
        legacy({
          sourceId: 'BAD-1',
          businessKey: 'BAD-1',
          definitionKey: 'split',
          tasks: [
            { nodeKey: 'nowhere', assignee: 'anna', status: 'Approved', decidedBy: 'anna', decidedAt: '2024-03-02T10:00:00Z' },
            { nodeKey: 'reviews', assignee: 'anna', status: 'Approved', decidedBy: 'anna', decidedAt: '2024-03-02T10:00:00Z' },
          ],
        }),
      );
      expectProblem(wrong, 422, 'Workflow.Import.Invalid');
      expect(wrong.body.errors).toEqual({
        'tasks[0].nodeKey': [expect.stringContaining('no node "nowhere"')],
        'tasks[1].nodeKey': [expect.stringContaining('parallel node')],
      });
      // An `any` node decided by a vote cannot still have an open task.
      const decided = await importAs(
        legacy({
          sourceId: 'BAD-2',
          businessKey: 'BAD-2',
          definitionKey: 'either',
          status: 'Running',
          endedAt: null,
          tasks: [
            { nodeKey: 'either', assignee: 'carl', status: 'Approved', decidedBy: 'carl', decidedAt: '2024-03-02T10:00:00Z' },
            { nodeKey: 'either', assignee: 'dora', status: 'Pending' },
          ],
        }),
      );
      expectProblem(decided, 422, 'Workflow.Import.Invalid');
      expect(decided.body.errors.tasks).toEqual([expect.stringContaining('decided it already')]);
      // Open tasks on two nodes of one sequence cannot wait at once.
      const sequence = await importAs(
        legacy({
          sourceId: 'BAD-3',
          businessKey: 'BAD-3',
          status: 'Suspended',
          endedAt: null,
          tasks: [
            { nodeKey: 'trio', assignee: 'anna', status: 'Pending' },
            { nodeKey: 'after', assignee: 'dora', status: 'Pending' },
          ],
        }),
      );
      expectProblem(sequence, 422, 'Workflow.Import.Invalid');
      expect(sequence.body.errors.tasks).toEqual([expect.stringContaining('cannot wait at the same time')]);
      expect(await written()).toEqual(before);
    });

    it('answers a malformed body with 400 Validation.Failed per field', async () => {
      const before = await written();
      const cases: Array<[Record<string, unknown>, string]> = [
        [legacy({ sourceId: undefined }), 'sourceId'],
        [legacy({ tenantId: 'Not A Tenant' }), 'tenantId'],
        [legacy({ definitionId: '0b7f3f0e-6a8e-4b8e-9a53-4c4f5e9c1d11' }), 'definitionId'],
        [legacy({ definitionKey: undefined }), 'definitionKey'],
        [legacy({ status: 'Done' }), 'status'],
        [legacy({ endedAt: null }), 'endedAt'],
        [legacy({ status: 'Running', endedAt: null, tasks: [] }), 'tasks'],
        [legacy({ tasks: [{ nodeKey: 'trio', assignee: 'anna', status: 'Pending' }] }), 'tasks[0].status'],
        [legacy({ tasks: [{ nodeKey: 'trio', assignee: 'anna', status: 'Approved' }] }), 'tasks[0].decidedBy'],
        [legacy({ createdAt: 'yesterday' }), 'createdAt'],
      ];
      for (const [body, field] of cases) {
        const res = await importAs(body);
        expectProblem(res, 400, 'Validation.Failed');
        expect(Object.keys(res.body.errors)).toContain(field);
      }
      expect(await written()).toEqual(before);
    });

    it('limits the body size and the task count (413 Workflow.Import.TooLarge)', async () => {
      const before = await written();
      const many = Array.from({ length: 501 }, (_, i) => ({ nodeKey: 'trio', visit: i + 1, assignee: 'anna', status: 'Cancelled' }));
      expectProblem(await importAs(legacy({ sourceId: 'BIG-1', businessKey: 'BIG-1', tasks: many })), 413, 'Workflow.Import.TooLarge');
      expectProblem(
        await importAs(legacy({ sourceId: 'BIG-2', businessKey: 'BIG-2', variables: { blob: 'x'.repeat(600_000) } })),
        413,
        'Workflow.Import.TooLarge',
      );
      expectProblem(
        await importAs(legacy({ sourceId: 'BIG-3', businessKey: 'BIG-3', variables: { blob: 'x'.repeat(70_000) } })),
        413,
        'Workflow.Runtime.VariablesTooLarge',
      );
      expect(await written()).toEqual(before);
    });

    it('is all or nothing: a business key taken by another instance is 409 and leaves no row of the import behind', async () => {
      await start('trio', 'TAKEN-1').expect(201);
      const before = await written();
      expectProblem(await importAs(legacy({ sourceId: 'TAKEN-SRC', businessKey: 'TAKEN-1' })), 409, 'Workflow.Import.BusinessKeyTaken');
      expect(await written()).toEqual(before);
      expect(await n(`SELECT count(*)::int AS n FROM workflow.legacy_import WHERE source_id = 'TAKEN-SRC'`)).toBe(0);
    });

    it('imports one instance when the same source arrives twice at once', async () => {
      const body = legacy({ sourceId: 'RACE-1', businessKey: 'RACE-1' });
      const answers = await Promise.all([importAs(body), importAs(body), importAs(body)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect(await n(`SELECT count(*)::int AS n FROM workflow.instance WHERE business_key = 'RACE-1'`)).toBe(1);
      expect(await events('workflow.management.instance-imported', answers[0]!.body.id)).toBe(1);
    });
  });

  describe('statistics', () => {
    it('answers the caller’s tenant only, each figure an aggregate of its rows', async () => {
      await platform.seedTenantAdmin('initech', 'ian');
      const ian = as('ian', 'initech');
      await publish('solo', solo('Solo'), 'ian', 'initech');
      await publish('solo', solo('Solo 2'), 'ian', 'initech');
      await ian
        .put(`${DEFS}/draft-only/draft`)
        .send({ definition: solo('Draft') })
        .expect(201);
      const one = (await start('solo', 'ST-1', 'ian', 'initech').expect(201)).body.id;
      await start('solo', 'ST-2', 'ian', 'initech').expect(201);
      const three = (await start('solo', 'ST-3', 'ian', 'initech').expect(201)).body.id;
      await ian.post(`${RUNTIME}/instances/${three}/cancel`).send({}).expect(200);
      // A task that has been open for a while.
      await sql.query(`UPDATE workflow.task SET created_at = now() - interval '3 hours' WHERE instance_id = $1`, [one]);

      const stats = (await ian.get(`${MGMT}/statistics`).expect(200)).body;
      expect(stats).toMatchObject({
        tenantId: 'initech',
        instances: { total: 3, imported: 0, byStatus: { Running: 2, Suspended: 0, Approved: 0, Rejected: 0, Withdrawn: 0, Terminated: 0, Cancelled: 1 } },
        tasks: { total: 3, open: 2, openAssignees: 1, byStatus: { Pending: 2, Cancelled: 1, Approved: 0, Rejected: 0, Transferred: 0, Delegated: 0 } },
        definitions: { keys: 1, versions: 2, bindings: 1, grayscaleBindings: 0, drafts: 1, versionsInUse: 1 },
      });
      expect(stats.tasks.oldestOpenAgeSeconds).toBeGreaterThanOrEqual(3 * 3600);
      expect(stats.tasks.oldestOpenAgeSeconds).toBeLessThan(3 * 3600 + 600);
      expect(Date.parse(stats.tasks.oldestOpenCreatedAt)).toBeLessThan(Date.now() - 3 * 3600 * 1000 + 60_000);
      // The platform tenant counts its own imports (and nothing of initech's).
      const own = (await as('mia').get(`${MGMT}/statistics`).expect(200)).body;
      expect(own.instances.imported).toBe(await n(`SELECT count(*)::int AS n FROM workflow.legacy_import WHERE tenant_id = 'default'`));
      expect(own.instances.total).toBe(await n(`SELECT count(*)::int AS n FROM workflow.instance WHERE tenant_id = 'default'`));
    });
  });

  describe('deleting an instance', () => {
    it('deletes an ended instance with its tasks, keeps its audit and its outbox rows, and audits the deletion', async () => {
      const id = (await start('trio', 'DEL-1').expect(201)).body.id;
      await complete('anna', await taskOf(id, 'anna')).expect(200);
      const outbox = await n(`SELECT count(*)::int AS n FROM workflow.outbox_message WHERE envelope->'payload'->>'instanceId' = $1`, [id]);
      const before = await written();
      expectProblem(await as('mia').delete(`${MGMT}/instances/${id}`), 409, 'Workflow.InvalidState');
      expect(await written()).toEqual(before);

      await as('mia').post(`${RUNTIME}/instances/${id}/terminate`).send({ reason: 'obsolete' }).expect(200);
      const res = await as('mia').delete(`${MGMT}/instances/${id}`).expect(200);
      expect(res.body).toEqual({ instanceId: id, status: 'Terminated', deletedTasks: 3 });
      expect(await statusOf(id)).toBeUndefined();
      expect(await tasksOf(id)).toEqual([]);
      expect(await n(`SELECT count(*)::int AS n FROM workflow.outbox_message WHERE envelope->'payload'->>'instanceId' = $1`, [id])).toBe(outbox + 2); // terminated, deleted
      expect(await events('workflow.management.instance-deleted', id)).toBe(1);
      expect(await audits('instance_id', id)).toEqual([
        expect.objectContaining({
          operation: 'delete-instance',
          subject: 'mia',
          before: expect.objectContaining({ status: 'Terminated', businessKey: 'DEL-1', tasks: 3 }),
          after: { deleted: true },
        }),
      ]);
      expectProblem(await as('mia').get(`${RUNTIME}/instances/${id}/progress`), 404, 'NotFound');
      expectProblem(await as('mia').delete(`${MGMT}/instances/${id}`), 404, 'NotFound');
    });

    it('answers another tenant’s instance, a missing one and a malformed id with 404', async () => {
      const acme = (await start('trio', 'DEL-ACME', 'alice', 'acme').expect(201)).body.id;
      await as('alice', 'acme').post(`${RUNTIME}/instances/${acme}/cancel`).send({}).expect(200);
      const before = await written();
      expectProblem(await as('mia').delete(`${MGMT}/instances/${acme}`), 404, 'NotFound');
      expectProblem(await as('mia').delete(`${MGMT}/instances/8f14e45f-ceea-4e7a-9b1b-2a4a0f1d8c11`), 404, 'NotFound');
      expectProblem(await as('mia').delete(`${MGMT}/instances/not-a-uuid`), 404, 'NotFound');
      expect(await written()).toEqual(before);
    });

    it('deletes an imported instance together with its source record, so the source can be imported again', async () => {
      const body = legacy({ sourceId: 'AGAIN-1', businessKey: 'AGAIN-1' });
      const first = (await importAs(body).expect(201)).body.id;
      await as('mia').delete(`${MGMT}/instances/${first}`).expect(200);
      const second = (await importAs(body).expect(201)).body.id;
      expect(second).not.toBe(first);
    });
  });

  describe('deleting a definition version', () => {
    it('refuses while a binding or an instance not yet ended references it (409 Workflow.Definition.InUse), deletes it once free, keeping ended instances', async () => {
      const v1 = await publish('temp', solo('Temp 1'));
      const v2 = await publish('temp', solo('Temp 2'));
      const running = (await start('temp', 'TMP-1').expect(201)).body.id;
      let before = await written();
      const previous = await as('mia').delete(`${MGMT}/definitions/${v1}`);
      expectProblem(previous, 409, 'Workflow.Definition.InUse');
      expect(previous.body.detail).toContain('previous');
      const active = await as('mia').delete(`${MGMT}/definitions/${v2}`);
      expectProblem(active, 409, 'Workflow.Definition.InUse');
      expect(active.body.detail).toContain('1 instance(s)');
      expect(await written()).toEqual(before);

      // v3 moves the binding on: v1 is named by nothing any more.
      const v3 = await publish('temp', solo('Temp 3'));
      const res = await as('mia').delete(`${MGMT}/definitions/${v1}`).expect(200);
      expect(res.body).toEqual({
        definitionId: v1,
        key: 'temp',
        version: 1,
        forced: false,
        terminatedInstances: [],
        keptInstances: 0,
        removedDeployments: 2,
        binding: { activeDefinitionId: v3, previousDefinitionId: v2 },
      });
      expectProblem(await as('wanda').get(`${DEFS}/versions/${v1}`), 404, 'NotFound');
      expect((await as('wanda').get(`${DEFS}/temp/deployments`).expect(200)).body.history.totalCount).toBe(1);
      expect(await events('workflow.management.definition-deleted', v1)).toBe(1);
      expect(await audits('definition_id', v1)).toEqual([
        expect.objectContaining({
          operation: 'delete-definition',
          subject: 'mia',
          instance_id: null,
          before: expect.objectContaining({ key: 'temp', version: 1, deployments: expect.any(Array) }),
          after: expect.objectContaining({ forced: false, keptInstances: 0 }),
        }),
      ]);

      // v2: still previous and still running; once the instance ended and v4 moved the binding, it goes, the instance stays.
      await as('mia').post(`${RUNTIME}/instances/${running}/cancel`).send({}).expect(200);
      before = await written();
      expectProblem(await as('mia').delete(`${MGMT}/definitions/${v2}`), 409, 'Workflow.Definition.InUse');
      expect(await written()).toEqual(before);
      await publish('temp', solo('Temp 4'));
      const kept = await as('mia').delete(`${MGMT}/definitions/${v2}`).expect(200);
      expect(kept.body).toMatchObject({ keptInstances: 1, terminatedInstances: [] });
      expect(await statusOf(running)).toBe('Cancelled');
      expect((await sql.query(`SELECT definition_version_id FROM workflow.instance WHERE id = $1`, [running]))[0].definition_version_id).toBe(v2);
      expect((await tasksOf(running)).map((t) => t.status)).toEqual(['Cancelled']);
    });

    it('forces the deletion only for a platform administrator: running instances are terminated and the binding falls back', async () => {
      const f1 = await publish('forced', solo('Forced 1'));
      const f2 = await publish('forced', solo('Forced 2'));
      const id = (await start('forced', 'FRC-1').expect(201)).body.id;
      let before = await written();
      expectProblem(await as('mia').delete(`${MGMT}/definitions/${f2}?force=true`), 403, 'Authorization.Denied');
      const gusVersion = await versionId('trio', 1, 'globex');
      expectProblem(await as('gus', 'globex').delete(`${MGMT}/definitions/${gusVersion}?force=true`), 403, 'Authorization.Denied');
      expectProblem(await as('mia').delete(`${MGMT}/definitions/${f2}?force=maybe`), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);

      const res = await as('admin').delete(`${MGMT}/definitions/${f2}?force=true`).expect(200);
      expect(res.body).toMatchObject({ forced: true, terminatedInstances: [id], binding: { activeDefinitionId: f1, previousDefinitionId: null } });
      expect(await statusOf(id)).toBe('Terminated');
      expect((await tasksOf(id)).map((t) => t.status)).toEqual(['Cancelled']);
      expect(await events('workflow.instance.terminated', id)).toBe(1);
      expect((await as('wanda').get(`${DEFS}/forced/active`).expect(200)).body.id).toBe(f1);
      // The last version: with no previous one the key has no active version any more.
      before = await written();
      const last = await as('admin').delete(`${MGMT}/definitions/${f1}?force=true`).expect(200);
      expect(last.body.binding).toBeNull();
      expectProblem(await start('forced', 'FRC-2'), 404, 'Workflow.Definition.NotActive');
      expect((await written()).bindings).toBe(before.bindings - 1);
    });

    it('answers another tenant’s version, a missing one and a malformed id with 404', async () => {
      const before = await written();
      expectProblem(await as('mia').delete(`${MGMT}/definitions/${await versionId('trio', 1, 'acme')}`), 404, 'NotFound');
      expectProblem(await as('mia').delete(`${MGMT}/definitions/8f14e45f-ceea-4e7a-9b1b-2a4a0f1d8c11`), 404, 'NotFound');
      expectProblem(await as('mia').delete(`${MGMT}/definitions/v1`), 404, 'NotFound');
      expect(await written()).toEqual(before);
    });
  });

  describe('refreshing candidates', () => {
    it('re-resolves a task’s role approval after the membership changed: cancels the leaver’s task, opens the newcomer’s, keeps the votes', async () => {
      const id = (await start('reviewed', 'REV-1').expect(201)).body.id;
      expect((await pending(id)).map((t) => t.assignee).sort()).toEqual(['rex', 'rosa']);
      await complete('rex', await taskOf(id, 'rex')).expect(200);
      const rosa = await taskOf(id, 'rosa');
      await assignRole('ruth');
      await revokeRole('rosa');

      const res = await as('mia').post(`${MGMT}/tasks/${rosa.id}/refresh-candidates`).expect(200);
      expect(res.body).toMatchObject({ instanceId: id, nodeKey: 'review', visit: 1, added: ['ruth'], removed: ['rosa'], seats: ['rex', 'ruth'] });
      expect(res.body.cancelledTasks).toEqual([rosa.id]);
      expect((await tasksOf(id)).map((t) => `${t.assignee}:${t.status}`)).toEqual(['rex:Approved', 'rosa:Cancelled', 'ruth:Pending']);
      expect(res.body.openedTasks).toEqual([(await taskOf(id, 'ruth')).id]);
      expect(await events('workflow.management.candidates-refreshed', id)).toBe(1);
      expect(await audits('instance_id', id)).toEqual([
        expect.objectContaining({
          operation: 'refresh-candidates',
          task_id: rosa.id,
          before: expect.objectContaining({ seats: ['rex', 'rosa'] }),
          after: expect.objectContaining({ added: ['ruth'], removed: ['rosa'] }),
        }),
      ]);
      // The node is still an `all` over its seats: ruth's vote closes it.
      expect((await complete('ruth', await taskOf(id, 'ruth')).expect(200)).body.nodeClosed).toBe(true);
      expect((await pending(id)).map((t) => `${t.nodeKey}:${t.assignee}`)).toEqual(['sign:dora']);
      // Nothing to change is an answer with empty lists, and writes nothing.
      const again = await start('reviewed', 'REV-1b').expect(201);
      const before = await written();
      const same = await as('mia')
        .post(`${MGMT}/tasks/${(await pending(again.body.id))[0]!.id}/refresh-candidates`)
        .expect(200);
      expect(same.body).toMatchObject({ added: [], removed: [], openedTasks: [], cancelledTasks: [] });
      expect(await written()).toEqual(before);
    });

    it('refuses a refresh that would decide the node (422 Workflow.Management.RefreshWouldDecide) and writes nothing', async () => {
      // Members now: rex, ruth.
      const id = (await start('reviewed', 'REV-2').expect(201)).body.id;
      await complete('rex', await taskOf(id, 'rex')).expect(200);
      const ruth = await taskOf(id, 'ruth');
      await revokeRole('ruth');
      const before = await written();
      expectProblem(await as('mia').post(`${MGMT}/tasks/${ruth.id}/refresh-candidates`), 422, 'Workflow.Management.RefreshWouldDecide');
      expect(await written()).toEqual(before);
      expect((await pending(id)).map((t) => t.assignee)).toEqual(['ruth']);
    });

    it('refreshes every waiting approval of a role, one result per node visit (refused ones reported, the others applied)', async () => {
      // Members now: rex. REV-3 seats rex alone.
      const three = (await start('reviewed', 'REV-3').expect(201)).body.id;
      await assignRole('rosa');
      const res = await as('mia').post(`${MGMT}/roles/${REVIEWERS}/refresh-candidates`).expect(200);
      const byInstance = Object.fromEntries(res.body.results.map((r: { instanceId: string }) => [r.instanceId, r]));
      // REV-2: ruth left, rex voted: removing ruth would decide; adding rosa alone keeps the node open, so the whole change applies.
      const two = (await sql.query(`SELECT id FROM workflow.instance WHERE business_key = 'REV-2'`))[0].id;
      expect(byInstance[two]).toMatchObject({ outcome: 'refreshed', added: ['rosa'], removed: ['ruth'], seats: ['rex', 'rosa'] });
      expect(byInstance[three]).toMatchObject({ outcome: 'refreshed', added: ['rosa'], removed: [], seats: ['rex', 'rosa'] });
      expect(res.body.role).toBe(REVIEWERS);
      expect(res.body.refreshed).toBe(res.body.results.filter((r: { outcome: string }) => r.outcome === 'refreshed').length);
      expect((await pending(three)).map((t) => t.assignee).sort()).toEqual(['rex', 'rosa']);
      expect((await tasksOf(two)).map((t) => `${t.assignee}:${t.status}`)).toEqual(['rex:Approved', 'ruth:Cancelled', 'rosa:Pending']);
      // The REV-1 instance is past the role's approval: not touched.
      const one = (await sql.query(`SELECT id FROM workflow.instance WHERE business_key = 'REV-1'`))[0].id;
      expect(byInstance[one]).toBeUndefined();
      // A second refresh finds nothing to change.
      const again = await as('mia').post(`${MGMT}/roles/${REVIEWERS}/refresh-candidates`).expect(200);
      expect(again.body.refreshed).toBe(0);
      expect(again.body.results.every((r: { outcome: string }) => r.outcome === 'unchanged')).toBe(true);
    });

    it('reports a refused visit in the role’s results and applies the others', async () => {
      // REV-4: rex and rosa; rex votes; rosa leaves: removing her would decide the node.
      const four = (await start('reviewed', 'REV-4').expect(201)).body.id;
      await complete('rex', await taskOf(four, 'rex')).expect(200);
      await revokeRole('rosa');
      const five = (await start('reviewed', 'REV-5').expect(201)).body.id;
      await assignRole('ruth');
      const res = await as('mia').post(`${MGMT}/roles/${REVIEWERS}/refresh-candidates`).expect(200);
      const byInstance = Object.fromEntries(res.body.results.map((r: { instanceId: string }) => [r.instanceId, r]));
      // ruth joins REV-4 too, so rosa's removal no longer decides it.
      expect(byInstance[four]).toMatchObject({ outcome: 'refreshed', added: ['ruth'], removed: ['rosa'] });
      expect(byInstance[five]).toMatchObject({ outcome: 'refreshed', added: ['ruth'], removed: [] });
      // rex alone again, after his vote on REV-5: removing ruth decides REV-2, REV-4 and REV-5 (rex voted there), not REV-1b or REV-3.
      await complete('rex', await taskOf(five, 'rex')).expect(200);
      await revokeRole('ruth');
      const [one, two, three] = await Promise.all(
        ['REV-1b', 'REV-2', 'REV-3'].map(async (key) => (await sql.query(`SELECT id FROM workflow.instance WHERE business_key = $1`, [key]))[0].id as string),
      );
      const untouched = async () => Promise.all([two!, four, five].map((id) => tasksOf(id)));
      const before = await untouched();
      const mixed = await as('mia').post(`${MGMT}/roles/${REVIEWERS}/refresh-candidates`).expect(200);
      const outcome = Object.fromEntries(mixed.body.results.map((r: { instanceId: string; outcome: string }) => [r.instanceId, r.outcome]));
      expect(outcome).toEqual({ [one!]: 'refreshed', [two!]: 'failed', [three!]: 'refreshed', [four]: 'failed', [five]: 'failed' });
      expect(mixed.body).toMatchObject({ refreshed: 2, failed: 3 });
      expect(mixed.body.results.find((r: { instanceId: string }) => r.instanceId === four)).toMatchObject({
        nodeKey: 'review',
        status: 422,
        code: 'Workflow.Management.RefreshWouldDecide',
      });
      expect(await untouched()).toEqual(before);
      expect((await pending(one!)).map((t) => t.assignee)).toEqual(['rex']);
    });

    it('refuses a task whose node assigns no role (422), a decided task (409), another tenant’s task (404); an unused role answers no results', async () => {
      const id = (await start('trio', 'REF-X').expect(201)).body.id;
      const anna = await taskOf(id, 'anna');
      const acme = (await start('trio', 'REF-ACME', 'alice', 'acme').expect(201)).body.id;
      const acmeTask = (await tasksOf(acme, 'acme'))[0]!;
      await complete('ben', await taskOf(id, 'ben')).expect(200);
      const before = await written();
      expectProblem(await as('mia').post(`${MGMT}/tasks/${anna.id}/refresh-candidates`), 422, 'Workflow.Management.NoRoleAssignee');
      const ben = (await tasksOf(id)).find((t) => t.assignee === 'ben')!;
      expectProblem(await as('mia').post(`${MGMT}/tasks/${ben.id}/refresh-candidates`), 409, 'Workflow.Task.NotPending');
      expectProblem(await as('mia').post(`${MGMT}/tasks/${acmeTask.id}/refresh-candidates`), 404, 'NotFound');
      expectProblem(await as('mia').post(`${MGMT}/tasks/not-a-uuid/refresh-candidates`), 404, 'NotFound');
      expect((await as('mia').post(`${MGMT}/roles/nobody-uses-this/refresh-candidates`).expect(200)).body).toEqual({
        role: 'nobody-uses-this',
        results: [],
        refreshed: 0,
        failed: 0,
      });
      expectProblem(await as('mia').post(`${MGMT}/roles/${'r'.repeat(101)}/refresh-candidates`), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);
    });
  });
});

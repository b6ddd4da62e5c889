import { DataSource } from 'typeorm';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';

const DEFS = '/api/workflow/definitions';
const VIEW = 'workflow.definition.view';
const UPDATE = 'workflow.definition.update';
const MANAGE = 'workflow.definition.manage';

/** A valid definition: one approval by a named user. `name` varies so versions differ. */
const valid = (name = 'Contract approval') => ({ name, nodes: [{ kind: 'approval', key: 'legal', assignees: [{ kind: 'user', subjects: ['lena'] }] }] });
/** Compiles (right shape) but breaks a static rule: two nodes share a key. */
const duplicateKeys = () => ({
  name: 'Duplicate keys',
  nodes: [
    { kind: 'approval', key: 'legal', assignees: [{ kind: 'user', subjects: ['lena'] }] },
    { kind: 'approval', key: 'legal', assignees: [{ kind: 'user', subjects: ['otto'] }] },
  ],
});
/** Not even compilable: a work-in-progress shape a draft may hold. */
const notCompilable = () => ({ name: 'Half drawn', nodes: 'to do' });

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: definitions over HTTP', () => {
  // Many writes by one caller: the limit is raised so the tests reach the handlers (the header still shows the policy).
  const platform = new OperationsTestPlatform('wfdefs', { env: { USER_POLICY_LIMIT: '100000' } });
  let sql: DataSource;
  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('workflow-engine').http, platform.token({ sub, tenantId }));
  const count = async (table: string, tenantId = 'default') =>
    Number((await sql.query(`SELECT count(*)::int AS n FROM workflow.${table} WHERE tenant_id = $1`, [tenantId]))[0].n);
  /** Everything a write of this feature can leave behind, per tenant. */
  const written = async (tenantId = 'default') => ({
    definitions: await count('definition', tenantId),
    versions: await count('definition_version', tenantId),
    drafts: await count('definition_draft', tenantId),
    bindings: await count('definition_binding', tenantId),
    deployments: await count('definition_deployment', tenantId),
    draftRevisions: Number(
      (await sql.query(`SELECT coalesce(sum(revision), 0)::int AS n FROM workflow.definition_draft WHERE tenant_id = $1`, [tenantId]))[0].n,
    ),
    outbox: Number((await sql.query(`SELECT count(*)::int AS n FROM workflow.outbox_message`))[0].n),
  });

  beforeAll(async () => {
    await platform.start();
    sql = platform.service('workflow-engine').app.get(DataSource);
    await platform.grantRole('default', 'wanda', 'workflow-designer', [VIEW, UPDATE, MANAGE]);
    await platform.grantRole('default', 'ed', 'workflow-editor', [VIEW, UPDATE]);
    await platform.grantRole('default', 'vic', 'workflow-viewer', [VIEW]);
    await platform.grantRole('default', 'nora', 'case-reader', ['cases.case.view']);
    await platform.grantRole('acme', 'alice', 'workflow-designer', [VIEW, UPDATE, MANAGE]);
  }, 120_000);
  afterAll(() => platform.stop());

  describe('drafts and their revision', () => {
    const DRAFT = `${DEFS}/nda-review/draft`;

    it('creates a draft at revision 1 (revision absent), reads it back, saves it at revision 2', async () => {
      const created = await as('wanda')
        .put(DRAFT)
        .send({ definition: valid('NDA') })
        .expect(201);
      expect(created.body).toEqual({ key: 'nda-review', revision: 1, definition: valid('NDA'), updatedBy: 'wanda', updatedAt: expect.any(String) });
      expect(created.headers['ratelimit-policy']).toMatch(/^"userPolicy";q=\d+/);

      const read = await as('vic').get(DRAFT).expect(200);
      expect(read.body).toMatchObject({ revision: 1, definition: valid('NDA') });
      expect(read.headers['ratelimit-policy']).toBeUndefined();

      const saved = await as('ed')
        .put(DRAFT)
        .send({ revision: 1, definition: valid('NDA v2') })
        .expect(200);
      expect(saved.body).toMatchObject({ revision: 2, definition: valid('NDA v2'), updatedBy: 'ed' });
    });

    it('refuses a stale revision with 409 problem+json (title, detail, currentRevision) and keeps the stored draft', async () => {
      const before = await written();
      const res = await as('wanda')
        .put(DRAFT)
        .send({ revision: 1, definition: valid('lost update') });
      expectProblem(res, 409, 'Workflow.Definition.RevisionConflict');
      expect(res.body).toMatchObject({ title: 'Conflict', detail: expect.stringContaining('revision 2'), currentRevision: 2 });
      // A create (revision 0) over an existing draft is just as stale.
      expectProblem(
        await as('wanda')
          .put(DRAFT)
          .send({ definition: valid('lost create') }),
        409,
        'Workflow.Definition.RevisionConflict',
      );
      expect(await written()).toEqual(before);
      expect((await as('vic').get(DRAFT).expect(200)).body).toMatchObject({ revision: 2, definition: valid('NDA v2') });
    });

    it('lets exactly one of concurrent saves based on the same revision win; the others get 409 and nothing of theirs is stored', async () => {
      const key = `${DEFS}/race-draft/draft`;
      await as('wanda')
        .put(key)
        .send({ definition: valid('base') })
        .expect(201);
      const saves = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          as('wanda')
            .put(key)
            .send({ revision: 1, definition: valid(`save ${i}`) }),
        ),
      );
      const statuses = saves.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      const winner = saves.find((r) => r.status === 200);
      expect((await as('vic').get(key).expect(200)).body).toEqual(winner?.body);
      expect(winner?.body.revision).toBe(2);
      await as('wanda').delete(key).expect(204);
    });

    it('answers an update of a draft that does not exist with 409 and currentRevision 0', async () => {
      const res = await as('wanda').put(`${DEFS}/no-such-draft/draft`).send({ revision: 3, definition: valid() });
      expectProblem(res, 409, 'Workflow.Definition.RevisionConflict');
      expect(res.body.currentRevision).toBe(0);
      expect(await count('definition_draft')).toBe(1);
    });

    it('stores a draft that is not valid, nor even compilable: a draft is work in progress', async () => {
      const res = await as('wanda').put(DRAFT).send({ revision: 2, definition: notCompilable() }).expect(200);
      expect(res.body).toMatchObject({ revision: 3, definition: notCompilable() });
    });

    it('refuses a body that is not a definition object, or a key that breaks the key rule, with 400 and nothing stored', async () => {
      const before = await written();
      expectProblem(
        await as('wanda')
          .put(DRAFT)
          .send({ revision: 3, definition: [1, 2] }),
        400,
        'Validation.Failed',
      );
      expectProblem(await as('wanda').put(DRAFT).send({ revision: -1, definition: valid() }), 400, 'Validation.Failed');
      expectProblem(await as('wanda').put(DRAFT).send({ revision: 3, definition: valid(), extra: true }), 400, 'Validation.Failed');
      const badKey = await as('wanda').put(`${DEFS}/NDA_Review/draft`).send({ definition: valid() });
      expectProblem(badKey, 400, 'Validation.Failed');
      expect(badKey.body.errors.key).toEqual([expect.stringMatching(/lower-case/)]);
      expectProblem(await as('wanda').put(`${DEFS}/versions/draft`).send({ definition: valid() }), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);
    });

    it('deletes the draft; then it is gone (404), and deleting again is 404', async () => {
      await as('ed').delete(DRAFT).expect(204);
      expectProblem(await as('vic').get(DRAFT), 404, 'NotFound');
      expectProblem(await as('ed').delete(DRAFT), 404, 'NotFound');
      // Deleted means a new draft starts over at revision 1.
      expect((await as('ed').put(DRAFT).send({ revision: 0, definition: valid() }).expect(201)).body.revision).toBe(1);
      await as('ed').delete(DRAFT).expect(204);
    });
  });

  describe('limits', () => {
    it('refuses a definition over WORKFLOW_DEFINITION_MAX_BYTES with 413 Workflow.Definition.TooLarge, nothing stored', async () => {
      const before = await written();
      const big = { ...valid(), description: 'x'.repeat(300_000) };
      const res = await as('wanda').put(`${DEFS}/too-big/draft`).send({ definition: big });
      expectProblem(res, 413, 'Workflow.Definition.TooLarge');
      expect(res.body.detail).toMatch(/at most 262144/);
      expectProblem(await as('wanda').post(`${DEFS}/validate`).send(big), 413, 'Workflow.Definition.TooLarge');
      expect(await written()).toEqual(before);
    });

    it('refuses more than WORKFLOW_DEFINITION_MAX_NODES nodes, counting those inside branches', async () => {
      const approval = (i: number) => ({ kind: 'approval', key: `n${i}`, assignees: [{ kind: 'initiator' }] });
      const branchNodes = Array.from({ length: 250 }, (_, i) => approval(i));
      const gateway = { kind: 'parallel', key: 'split', branches: [{ nodes: branchNodes }, { nodes: branchNodes.map((n, i) => ({ ...n, key: `m${i}` })) }] };
      const res = await as('wanda')
        .put(`${DEFS}/too-many/draft`)
        .send({ definition: { name: 'wide', nodes: [gateway] } });
      expectProblem(res, 413, 'Workflow.Definition.TooLarge');
      expect(res.body.detail).toBe('The definition has 501 nodes; at most 500 are accepted.');
    });

    it('answers a body over the platform body limit (1 MB) with the platform 413 PayloadTooLarge problem', async () => {
      const res = await as('wanda')
        .put(`${DEFS}/too-big/draft`)
        .send({ definition: { name: 'x', description: 'x'.repeat(1_100_000) } });
      expectProblem(res, 413, 'PayloadTooLarge');
    });
  });

  describe('reads of what does not exist', () => {
    it('answers 404 for a key with nothing published, and for a version id that is not one', async () => {
      for (const path of ['/nothing-here/versions', '/nothing-here/active', '/nothing-here/deployments', '/nothing-here/draft'])
        expectProblem(await as('vic').get(`${DEFS}${path}`), 404, 'NotFound');
      expectProblem(await as('vic').get(`${DEFS}/versions/not-a-uuid`), 404, 'NotFound');
      expectProblem(await as('vic').get(`${DEFS}/versions/00000000-0000-4000-8000-000000000000`), 404, 'NotFound');
      for (const action of ['rollback', 'complete-grayscale'])
        expectProblem(await as('wanda').post(`${DEFS}/nothing-here/deployments/${action}`), 404, 'NotFound');
    });
  });

  describe('denial: every route needs its permission, and a denied write leaves nothing behind', () => {
    const routes: Array<{ method: 'get' | 'put' | 'post' | 'delete'; path: string; body?: object; needs: 'view' | 'update' | 'manage' }> = [
      { method: 'post', path: `${DEFS}/`, body: { key: 'denied', definition: valid() }, needs: 'manage' },
      { method: 'post', path: `${DEFS}/validate`, body: valid(), needs: 'view' },
      { method: 'post', path: `${DEFS}/simulate`, body: { definition: valid() }, needs: 'view' },
      { method: 'get', path: `${DEFS}/schema`, needs: 'view' },
      { method: 'get', path: `${DEFS}/designer-schema`, needs: 'view' },
      { method: 'get', path: `${DEFS}/denied/versions`, needs: 'view' },
      { method: 'get', path: `${DEFS}/versions/00000000-0000-4000-8000-000000000000`, needs: 'view' },
      { method: 'get', path: `${DEFS}/denied/active`, needs: 'view' },
      { method: 'get', path: `${DEFS}/denied/deployments`, needs: 'view' },
      { method: 'post', path: `${DEFS}/denied/deployments`, body: { definition: valid() }, needs: 'manage' },
      { method: 'post', path: `${DEFS}/denied/deployments/grayscale`, body: { version: 1 }, needs: 'manage' },
      { method: 'post', path: `${DEFS}/denied/deployments/complete-grayscale`, needs: 'manage' },
      { method: 'post', path: `${DEFS}/denied/deployments/rollback`, needs: 'manage' },
      { method: 'get', path: `${DEFS}/denied/draft`, needs: 'view' },
      { method: 'put', path: `${DEFS}/denied/draft`, body: { definition: valid() }, needs: 'update' },
      { method: 'delete', path: `${DEFS}/denied/draft`, needs: 'update' },
      { method: 'post', path: `${DEFS}/denied/draft/validate`, needs: 'view' },
      { method: 'post', path: `${DEFS}/denied/draft/simulate`, body: {}, needs: 'view' },
      { method: 'post', path: `${DEFS}/denied/draft/publish`, body: {}, needs: 'manage' },
    ];
    const holds: Record<string, Array<'view' | 'update' | 'manage'>> = { nora: [], vic: ['view'], ed: ['view', 'update'] };

    it('covers every route of the definitions table (spec §4)', () => expect(routes).toHaveLength(19));

    it.each(Object.keys(holds))('refuses %s every route it lacks the permission for with 403 Authorization.Denied', async (subject) => {
      // A draft to delete or publish, so a wrongly permitted call would have something to change.
      await as('wanda').put(`${DEFS}/denied/draft`).send({ definition: valid() });
      const before = await written();
      const refused = routes.filter((r) => !holds[subject]?.includes(r.needs));
      expect(refused.length).toBeGreaterThan(0);
      for (const route of refused) {
        const call = as(subject)[route.method](route.path);
        const res = route.body === undefined ? await call : await call.send(route.body);
        expect({ route: `${route.method} ${route.path}`, status: res.status, code: res.body.code }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
          code: 'Authorization.Denied',
        });
      }
      expect(await written()).toEqual(before);
      await as('wanda').delete(`${DEFS}/denied/draft`).expect(204);
    });
  });

  describe('the schemas', () => {
    it('serves the definition JSON Schema and the designer schema to a viewer', async () => {
      const schema = await as('vic').get(`${DEFS}/schema`).expect(200);
      expect(typeof schema.body).toBe('object');
      const designer = await as('vic').get(`${DEFS}/designer-schema`).expect(200);
      expect(typeof designer.body).toBe('object');
    });
  });

  describe('validation and simulation', () => {
    it('validates a definition: valid, or invalid with every problem by code and node key, as a 200 answer', async () => {
      expect((await as('vic').post(`${DEFS}/validate`).send(valid()).expect(200)).body).toEqual({ valid: true, problems: [] });
      const invalid = await as('vic').post(`${DEFS}/validate`).send(duplicateKeys()).expect(200);
      expect(invalid.body.valid).toBe(false);
      expect(invalid.body.problems).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: expect.stringMatching(/^Workflow\.Definition\./), nodeKey: 'legal' })]),
      );
      const broken = await as('vic').post(`${DEFS}/validate`).send(notCompilable()).expect(200);
      expect(broken.body.valid).toBe(false);
    });

    it('validates the saved draft', async () => {
      await as('ed').put(`${DEFS}/check-me/draft`).send({ definition: duplicateKeys() }).expect(201);
      const res = await as('vic').post(`${DEFS}/check-me/draft/validate`).expect(200);
      expect(res.body.valid).toBe(false);
      expect(res.body.problems.some((p: { nodeKey?: string }) => p.nodeKey === 'legal')).toBe(true);
      await as('ed').delete(`${DEFS}/check-me/draft`).expect(204);
    });

    it('simulates a definition and a draft without writing anything; an invalid one is 422 with its problems', async () => {
      const before = await written();
      const res = await as('vic').post(`${DEFS}/simulate`).send({ definition: valid(), variables: {} }).expect(200);
      expect(res.body.path).toContain('legal');
      expect(res.body).toMatchObject({ outcome: 'waiting', tasks: [{ nodeKey: 'legal', assignees: ['lena'], status: 'pending' }] });
      const invalid = await as('vic').post(`${DEFS}/simulate`).send({ definition: duplicateKeys() });
      expectProblem(invalid, 422, 'Workflow.Definition.Invalid');
      expect(invalid.body.problems.length).toBeGreaterThan(0);
      await as('ed').put(`${DEFS}/simulate-me/draft`).send({ definition: valid() }).expect(201);
      const draft = await as('vic')
        .post(`${DEFS}/simulate-me/draft/simulate`)
        .send({ votes: { legal: 'approve' } })
        .expect(200);
      expect(draft.body).toMatchObject({ outcome: 'approved', tasks: [{ nodeKey: 'legal', status: 'approved' }] });
      await as('ed').delete(`${DEFS}/simulate-me/draft`).expect(204);
      expect(await written()).toEqual(before);
    });

    it("resolves a role assignee to the role's members in the caller's tenant, through policy-management", async () => {
      const byRole = (role: string) => ({
        name: 'By role',
        nodes: [{ kind: 'approval', key: 'board', assignees: [{ kind: 'role', role }], emptyAssignee: 'auto-pass' }],
      });
      const designers = await as('vic')
        .post(`${DEFS}/simulate`)
        .send({ definition: byRole('workflow-designer') })
        .expect(200);
      expect(designers.body).toMatchObject({ outcome: 'waiting', tasks: [{ nodeKey: 'board', assignees: ['wanda'] }] });
      // A role the tenant does not have has no members: the node's empty-assignee policy applies.
      const nobody = await as('vic')
        .post(`${DEFS}/simulate`)
        .send({ definition: byRole('no-such-role') })
        .expect(200);
      expect(nobody.body).toMatchObject({ outcome: 'approved', autoPassed: ['board'], tasks: [] });
    });
  });

  describe('publishing, versions and deployment actions', () => {
    const KEY = `${DEFS}/contract-approval`;
    let v1: string;
    let v2: string;

    it('publishes the draft as version 1, active with no previous, removes the draft and puts the event in the outbox', async () => {
      await as('ed')
        .put(`${KEY}/draft`)
        .send({ definition: valid('v1') })
        .expect(201);
      const outboxBefore = (await written()).outbox;
      const res = await as('wanda').post(`${KEY}/draft/publish`).send({ revision: 1 }).expect(201);
      v1 = res.body.version.id;
      expect(res.body.version).toMatchObject({
        key: 'contract-approval',
        version: 1,
        source: 'publish',
        createdBy: 'wanda',
        checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(res.body.binding).toMatchObject({ status: 'active', active: { id: v1, version: 1 }, previous: null });
      expectProblem(await as('vic').get(`${KEY}/draft`), 404, 'NotFound');
      const events = await sql.query(`SELECT envelope FROM workflow.outbox_message WHERE event_type = 'workflow.definition.published' ORDER BY id`);
      expect((await written()).outbox).toBe(outboxBefore + 1);
      expect(events.at(-1).envelope).toMatchObject({
        tenantId: 'default',
        payload: { key: 'contract-approval', version: 1, definitionId: v1, previousDefinitionId: null },
      });
    });

    it('refuses to publish an invalid draft with 422 Workflow.Definition.Invalid listing code and node key; nothing is written, the draft stays', async () => {
      await as('ed').put(`${KEY}/draft`).send({ definition: duplicateKeys() }).expect(201);
      const before = await written();
      const res = await as('wanda').post(`${KEY}/draft/publish`);
      expectProblem(res, 422, 'Workflow.Definition.Invalid');
      expect(res.body.problems).toEqual(expect.arrayContaining([expect.objectContaining({ code: expect.any(String), nodeKey: 'legal' })]));
      expect(await written()).toEqual(before);
      // Publishing a revision other than the stored one is a conflict, also before validation.
      expectProblem(await as('wanda').post(`${KEY}/draft/publish`).send({ revision: 7 }), 409, 'Workflow.Definition.RevisionConflict');
      await as('ed').delete(`${KEY}/draft`).expect(204);
    });

    it('publishes version 2 through the deployments route: active v2, previous v1', async () => {
      const res = await as('wanda')
        .post(`${KEY}/deployments`)
        .send({ definition: valid('v2') })
        .expect(201);
      v2 = res.body.version.id;
      expect(res.body.binding).toMatchObject({ status: 'active', active: { id: v2, version: 2 }, previous: { id: v1, version: 1 } });
      const active = await as('vic').get(`${KEY}/active`).expect(200);
      expect(active.body).toMatchObject({ id: v2, version: 2, definition: valid('v2'), bindingStatus: 'active' });
      expectProblem(await as('wanda').post(`${KEY}/deployments`).send({ definition: duplicateKeys() }), 422, 'Workflow.Definition.Invalid');
    });

    it('grayscale switches the active version to v1 and keeps v2 as previous; complete-grayscale promotes only the marker', async () => {
      const gray = await as('wanda').post(`${KEY}/deployments/grayscale`).send({ version: 1 }).expect(200);
      expect(gray.body).toMatchObject({ status: 'grayscale', active: { id: v1 }, previous: { id: v2 } });
      expectProblem(await as('wanda').post(`${KEY}/deployments/grayscale`).send({ version: 1 }), 409, 'Workflow.Definition.AlreadyActive');
      expectProblem(await as('wanda').post(`${KEY}/deployments/grayscale`).send({ version: 99 }), 404, 'NotFound');

      const done = await as('wanda').post(`${KEY}/deployments/complete-grayscale`).expect(200);
      expect(done.body).toMatchObject({ status: 'active', active: { id: v1 }, previous: { id: v2 } });
      expectProblem(await as('wanda').post(`${KEY}/deployments/complete-grayscale`), 409, 'Workflow.Definition.NotInGrayscale');
      expect(await count('definition_version')).toBeGreaterThanOrEqual(2);
    });

    it('rollback restores the previous version; with nothing left to restore it is 409 NothingToRollBack', async () => {
      const back = await as('wanda').post(`${KEY}/deployments/rollback`).expect(200);
      expect(back.body).toMatchObject({ status: 'active', active: { id: v2 }, previous: null });
      const before = await written();
      const res = await as('wanda').post(`${KEY}/deployments/rollback`);
      expectProblem(res, 409, 'Workflow.Definition.NothingToRollBack');
      expect(res.body.title).toBe('Conflict');
      expect(await written()).toEqual(before);
    });

    it('lists the deployments newest first, with the binding', async () => {
      const res = await as('vic').get(`${KEY}/deployments`).expect(200);
      expect(res.body.binding).toMatchObject({ active: { id: v2 }, status: 'active' });
      expect(res.body.history.items.map((d: { action: string; toVersion: number }) => `${d.action}:${d.toVersion}`)).toEqual([
        'rollback:2',
        'complete-grayscale:1',
        'grayscale:1',
        'publish:2',
        'publish:1',
      ]);
      expect(res.body.history.totalCount).toBe(5);
    });

    it('puts one workflow.definition.deployment-changed event in the outbox per binding change, in order', async () => {
      const rows: Array<{ envelope: { payload: Record<string, unknown> } }> = await sql.query(
        `SELECT envelope FROM workflow.outbox_message WHERE event_type = 'workflow.definition.deployment-changed' AND envelope->'payload'->>'key' = $1 ORDER BY id`,
        [KEY.split('/').pop()],
      );
      expect(rows.map((r) => r.envelope.payload)).toEqual([
        expect.objectContaining({
          action: 'grayscale',
          status: 'grayscale',
          activeDefinitionId: v1,
          activeVersion: 1,
          fromDefinitionId: v2,
          previousDefinitionId: v2,
          changedBy: 'wanda',
        }),
        expect.objectContaining({ action: 'complete-grayscale', status: 'active', activeDefinitionId: v1, fromDefinitionId: v1, previousDefinitionId: v2 }),
        expect.objectContaining({
          action: 'rollback',
          status: 'active',
          activeDefinitionId: v2,
          activeVersion: 2,
          fromDefinitionId: v1,
          previousDefinitionId: null,
        }),
      ]);
    });

    it('pages the versions newest first, and reads one version with its definition', async () => {
      const first = await as('vic').get(`${KEY}/versions?pageSize=1`).expect(200);
      expect(first.body).toMatchObject({ pageIndex: 0, pageSize: 1, totalCount: 2, items: [{ id: v2, version: 2 }] });
      expect(first.body.items[0].definition).toBeUndefined();
      const second = await as('vic').get(`${KEY}/versions?pageSize=1&pageIndex=1`).expect(200);
      expect(second.body.items).toEqual([expect.objectContaining({ id: v1, version: 1 })]);
      expectProblem(await as('vic').get(`${KEY}/versions?pageSize=1000`), 400, 'Validation.Failed');
      const one = await as('vic').get(`${DEFS}/versions/${v1}`).expect(200);
      expect(one.body).toMatchObject({ id: v1, key: 'contract-approval', version: 1, definition: valid('v1') });
    });

    it("answers another tenant's key and version id with 404, and lets that tenant number its own key from 1", async () => {
      for (const path of ['/contract-approval/versions', '/contract-approval/active', '/contract-approval/deployments', `/versions/${v1}`])
        expectProblem(await as('alice', 'acme').get(`${DEFS}${path}`), 404, 'NotFound');
      expectProblem(await as('alice', 'acme').post(`${KEY}/deployments/grayscale`).send({ version: 1 }), 404, 'NotFound');
      expectProblem(await as('alice', 'acme').post(`${KEY}/deployments/rollback`), 404, 'NotFound');
      const own = await as('alice', 'acme')
        .post(`${KEY}/deployments`)
        .send({ definition: valid('acme') })
        .expect(201);
      expect(own.body.version.version).toBe(1);
      expect((await as('vic').get(`${KEY}/active`).expect(200)).body.id).toBe(v2);
    });

    it('numbers concurrent publishes of one key consecutively, each answered 201, none lost from the binding history', async () => {
      const key = `${DEFS}/concurrent`;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          as('wanda')
            .post(`${key}/deployments`)
            .send({ definition: valid(`c${i}`) }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(results.map((r) => r.body.version.version).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const active = await as('vic').get(`${key}/active`).expect(200);
      expect(active.body.version).toBe(8);
      const history = await as('vic').get(`${key}/deployments?pageSize=100`).expect(200);
      // Each publish moved the binding from the one before it: a chain with no gap.
      const chain = [...history.body.history.items].reverse().map((d: { fromVersion: number | null; toVersion: number }) => [d.fromVersion, d.toVersion]);
      expect(chain).toEqual(Array.from({ length: 8 }, (_, i) => [i === 0 ? null : i, i + 1]));
    });

    it('legacy deploy needs only compilable JSON (with or without the trailing slash); a non-compilable snapshot is 422', async () => {
      const res = await as('wanda').post(`${DEFS}/`).send({ key: 'legacy-flow', definition: duplicateKeys() }).expect(201);
      expect(res.body.version).toMatchObject({ key: 'legacy-flow', version: 1, source: 'legacy-deploy' });
      const again = await as('wanda').post(DEFS).send({ key: 'legacy-flow', definition: valid() }).expect(201);
      expect(again.body.binding).toMatchObject({ active: { version: 2 }, previous: { version: 1 } });
      const before = await written();
      expectProblem(await as('wanda').post(DEFS).send({ key: 'legacy-flow', definition: notCompilable() }), 422, 'Workflow.Definition.Invalid');
      expectProblem(await as('wanda').post(DEFS).send({ key: 'Legacy Flow', definition: valid() }), 400, 'Validation.Failed');
      expect(await written()).toEqual(before);
    });
  });

  it('workflow.runtime off for the tenant: every write is 403 Feature.Disabled and writes nothing; reads, validation and simulation still answer', async () => {
    const FEATURE = '/api/authorization/features/workflow.runtime';
    const draft = `${DEFS}/gated/draft`;
    await platform.as().put(FEATURE).send({ enabled: false, scope: 'tenant' }).expect(200);
    try {
      // The gate drops its cached answer when the feature event reaches the engine: polled, with a
      // bound. Each probe names a draft of its own: one the engine accepts before the event reaches
      // it must not be the draft the last step creates (a second PUT of it would answer 409).
      let probes = 0;
      const refused = await eventually(
        () => as('wanda').put(`${DEFS}/gated-probe-${++probes}/draft`).send({ definition: valid() }),
        (res) => res.status === 403,
      );
      expectProblem(refused, 403, 'Feature.Disabled');
      const before = await written();
      expectProblem(await as('wanda').post(`${DEFS}/gated/deployments`).send({ definition: valid() }), 403, 'Feature.Disabled');
      expect(await written()).toEqual(before);
      await as('vic').post(`${DEFS}/validate`).send(valid()).expect(200);
      await as('vic').post(`${DEFS}/simulate`).send({ definition: valid() }).expect(200);
      await as('vic').get(`${DEFS}/schema`).expect(200);
      // Another tenant is not affected.
      await as('alice', 'acme').put(`${DEFS}/gated/draft`).send({ definition: valid() }).expect(201);
    } finally {
      await platform.as().put(FEATURE).send({ enabled: true, scope: 'tenant' }).expect(200);
    }
    const allowed = await eventually(
      () => as('wanda').put(draft).send({ definition: valid() }),
      (res) => res.status !== 403,
    );
    expect(allowed.status).toBe(201);
  });
});

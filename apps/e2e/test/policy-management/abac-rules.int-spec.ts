import { EventTypes } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const RULES = '/api/authorization/abac-rules';
const ROLES = '/api/authorization/roles';

/** A rule that denies every View of authorization/role in the tenant it is created in. */
const denyRoleView = {
  name: 'no role listing',
  priority: 1,
  verdict: 'Deny',
  actions: ['View'],
  modules: ['authorization'],
  resourceTypes: ['role'],
};

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management ABAC rules', () => {
  const platform = new PolicyTestPlatform('abac');
  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
    await platform.seedTenantAdmin('globex', 'gus');
    // bob of acme may list roles (RBAC Allow) and nothing else.
    await platform.sql.transaction(async (m) => {
      const [role] = await m.query(`INSERT INTO authz.role (tenant_id, name) VALUES ('acme', 'role-viewer') RETURNING id, name`);
      await m.query(
        `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
         SELECT 'acme', $1, $2, p.id, p.code, p.module, 'test' FROM authz.permission p WHERE p.code = 'authorization.role.view'`,
        [role.id, role.name],
      );
      await m.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('acme', 'bob', $1, $2, 'test')`, [
        role.id,
        role.name,
      ]);
    });
    await platform.invalidate(EventTypes.authorization.userRoleAssigned, 'acme', { tenantId: 'acme', subject: 'bob' });
  }, 90_000);
  afterAll(() => platform.stop());

  const ann = () => platform.as('ann', 'acme');
  const bob = () => platform.as('bob', 'acme');
  const state = async () => ({
    rules: await platform.sql.query(`SELECT id, tenant_id, name, priority, verdict, conditions, enabled, updated_at FROM authz.abac_rule ORDER BY id`),
    log: await platform.count('policy_change_log'),
    outbox: await platform.count('outbox_message'),
  });

  it('an ABAC Deny overrides the RBAC Allow on the very next request, and deleting it restores access', async () => {
    await bob().get(ROLES).expect(200);
    const created = await ann().post(RULES).send(denyRoleView).expect(201);
    expect(created.body).toMatchObject({ ...denyRoleView, description: null, conditions: [], obligations: [], enabled: true });

    const denied = await bob().get(ROLES).expect(403);
    expect(denied.body.code).toBe('Authorization.Denied');
    await ann().get(ROLES).expect(403); // the rule has no condition: it covers the whole tenant
    await platform.as().get(ROLES).expect(200); // another tenant's rule does not apply
    await bob().get(`${ROLES}?pageSize=5`).expect(403); // another cache key, same verdict

    await ann().delete(`${RULES}/${created.body.id}`).expect(204);
    await bob().get(ROLES).expect(200);
    expect(await platform.count('abac_rule', 'id = $1', [created.body.id])).toBe(0);
  });

  it('evaluates conditions by their stored integers, and a disabling update takes effect at once', async () => {
    const rule = {
      name: 'bob may not list roles',
      description: 'conditions on the caller',
      priority: 5,
      verdict: 'Deny',
      conditions: [
        { field: 'CallerSubject', operator: 'Equals', value: 'bob' },
        { field: 'ResourceAmount', operator: 'NotExists' },
      ],
      modules: ['authorization'],
    };
    const created = await ann().post(RULES).send(rule).expect(201);
    const [row] = await platform.sql.query(`SELECT verdict, conditions, actions, modules, resource_types, enabled FROM authz.abac_rule WHERE id = $1`, [
      created.body.id,
    ]);
    expect(row).toEqual({
      verdict: 2,
      conditions: [
        { field: 12, operator: 1, value: 'bob' },
        { field: 2, operator: 10 },
      ],
      actions: [],
      modules: ['authorization'],
      resource_types: [],
      enabled: true,
    });
    expect(created.body.conditions).toEqual(rule.conditions);

    await bob().get(ROLES).expect(403);
    await ann().get(ROLES).expect(200); // the condition names bob only

    const updated = await ann()
      .put(`${RULES}/${created.body.id}`)
      .send({ ...rule, enabled: false })
      .expect(200);
    expect(updated.body).toMatchObject({ id: created.body.id, enabled: false, verdict: 'Deny' });
    await bob().get(ROLES).expect(200);

    await ann()
      .put(`${RULES}/${created.body.id}`)
      .send({ ...rule, verdict: 'Allow', priority: 7 })
      .expect(200);
    const [allow] = await platform.sql.query(`SELECT verdict, priority FROM authz.abac_rule WHERE id = $1`, [created.body.id]);
    expect(allow).toEqual({ verdict: 1, priority: 7 });
    await bob().get(ROLES).expect(200);
    await ann().delete(`${RULES}/${created.body.id}`).expect(204);
  });

  it("lists the tenant's rules only, paged, in evaluation order (priority, then id)", async () => {
    const gus = () => platform.as('gus', 'globex');
    const off = { verdict: 'Allow', enabled: false };
    const ids: Record<number, string> = {};
    for (const priority of [30, 10, 20])
      ids[priority] = (
        await gus()
          .post(RULES)
          .send({ ...off, name: `p${priority}`, priority })
          .expect(201)
      ).body.id;
    await ann()
      .post(RULES)
      .send({ ...off, name: 'acme rule', priority: 0 })
      .expect(201);

    const first = await gus().get(`${RULES}?pageSize=2`).expect(200);
    expect(first.body).toMatchObject({ pageIndex: 0, pageSize: 2, totalCount: 3 });
    expect(first.body.items.map((r: { id: string }) => r.id)).toEqual([ids[10], ids[20]]);
    const second = await gus().get(`${RULES}?pageSize=2&pageIndex=1`).expect(200);
    expect(second.body.items.map((r: { id: string }) => r.id)).toEqual([ids[30]]);
    await gus().get(`${RULES}?pageSize=500`).expect(400);
  });

  it('answers one rule by id in the shape the list and the write answer', async () => {
    const created = await ann()
      .post(RULES)
      .send({ ...denyRoleView, name: 'read back', enabled: false, conditions: [{ field: 'ResourceAmount', operator: 'GreaterThan', value: 5 }] })
      .expect(201);
    const { body } = await ann().get(`${RULES}/${created.body.id}`).expect(200);
    expect(body).toEqual(created.body);
    const listed = await ann().get(`${RULES}?pageSize=100`).expect(200);
    expect(listed.body.items.find((r: { id: string }) => r.id === created.body.id)).toEqual(body);
    await ann().delete(`${RULES}/${created.body.id}`).expect(204);
    const gone = await ann().get(`${RULES}/${created.body.id}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'NotFound']);
  });

  it('writes a change-log row with before/after and an outbox event for create, update and delete', async () => {
    const created = await ann()
      .post(RULES)
      .send({ ...denyRoleView, name: 'audited', enabled: false })
      .expect(201);
    const id = created.body.id as string;
    await ann()
      .put(`${RULES}/${id}`)
      .send({ ...denyRoleView, name: 'audited 2', enabled: false, obligations: ['log-access'] })
      .expect(200);
    await ann().delete(`${RULES}/${id}`).expect(204);

    const log = await platform.sql.query(
      `SELECT tenant_id, actor, change, target_type, before, after FROM authz.policy_change_log WHERE target_id = $1 ORDER BY occurred_at, change`,
      [id],
    );
    expect(log.map((r: { change: string }) => r.change).sort()).toEqual(['abac-rule.created', 'abac-rule.deleted', 'abac-rule.updated']);
    const byChange = Object.fromEntries(log.map((r: { change: string }) => [r.change, r]));
    for (const r of log) expect(r).toMatchObject({ tenant_id: 'acme', actor: 'ann', target_type: 'abac-rule' });
    expect(byChange['abac-rule.created']).toMatchObject({ before: null, after: { id, name: 'audited', verdict: 'Deny' } });
    expect(byChange['abac-rule.updated']).toMatchObject({
      before: { name: 'audited', obligations: [] },
      after: { name: 'audited 2', obligations: ['log-access'] },
    });
    expect(byChange['abac-rule.deleted']).toMatchObject({ before: { id, name: 'audited 2' }, after: null });

    const events = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'ruleId' = $2`, [
      EventTypes.authorization.abacRuleChanged,
      id,
    ]);
    expect(events.map((e: { envelope: { payload: { change: string } } }) => e.envelope.payload.change).sort()).toEqual(['created', 'deleted', 'updated']);
    for (const e of events) expect(e.envelope).toMatchObject({ tenantId: 'acme', payload: { tenantId: 'acme', ruleId: id } });
  });

  it('denies every route to a caller without the permission, and nothing changes', async () => {
    const existing = (
      await ann()
        .post(RULES)
        .send({ ...denyRoleView, name: 'kept', enabled: false })
        .expect(201)
    ).body.id;
    const before = await state();
    const expectDenied = async (res: { status: number; body: { code?: string } }) => {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('Authorization.Denied');
    };
    await expectDenied(await bob().get(RULES));
    await expectDenied(await bob().get(`${RULES}/${existing}`));
    await expectDenied(await bob().post(RULES).send(denyRoleView));
    await expectDenied(
      await bob()
        .put(`${RULES}/${existing}`)
        .send({ ...denyRoleView, enabled: true }),
    );
    await expectDenied(await bob().delete(`${RULES}/${existing}`));
    expect(await state()).toEqual(before);
  });

  it("treats another tenant's rule id like an unknown id (404) and changes nothing", async () => {
    const foreign = (
      await platform
        .as()
        .post(RULES)
        .send({ ...denyRoleView, name: 'default tenant rule', enabled: false })
        .expect(201)
    ).body.id;
    const before = await state();
    for (const res of [
      await ann().get(`${RULES}/${foreign}`),
      await ann().get(`${RULES}/00000000-0000-4000-8000-000000000000`),
      await ann().get(`${RULES}/not-a-uuid`),
      await ann()
        .put(`${RULES}/${foreign}`)
        .send({ ...denyRoleView, enabled: true }),
      await ann().delete(`${RULES}/${foreign}`),
      await ann().delete(`${RULES}/00000000-0000-4000-8000-000000000000`),
      await ann().delete(`${RULES}/not-a-uuid`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NotFound');
    }
    const listed = await ann().get(`${RULES}?pageSize=100`).expect(200);
    expect(listed.body.items.map((r: { id: string }) => r.id)).not.toContain(foreign);
    expect(await state()).toEqual(before);
  });

  it('rejects malformed rules with a message per field and writes nothing', async () => {
    const existing = (
      await ann()
        .post(RULES)
        .send({ ...denyRoleView, name: 'untouched', enabled: false })
        .expect(201)
    ).body.id;
    const before = await state();
    const cases: Array<[object, string]> = [
      [{ ...denyRoleView, conditions: [{ field: 'Colour', operator: 'Equals', value: 'red' }] }, 'conditions.0.field'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceStatus', operator: 'Resembles', value: 'x' }] }, 'conditions.0.operator'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceAmount', operator: 'Equals', value: 'ten' }] }, 'conditions.0.value'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceStatus', operator: 'GreaterThan', value: 3 }] }, 'conditions.0.value'],
      [{ ...denyRoleView, conditions: [{ field: 'CallerIsOwner', operator: 'In', value: [true, 'yes'] }] }, 'conditions.0.value'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceStatus', operator: 'In', value: [] }] }, 'conditions.0.value'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceStatus', operator: 'Equals' }] }, 'conditions.0.value'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceStatus', operator: 'Exists', value: 'x' }] }, 'conditions.0.value'],
      [{ ...denyRoleView, conditions: [{ field: 'ResourceStatus', operator: 'Equals', value: 'x', extra: 1 }] }, 'conditions.0.extra'],
      [{ ...denyRoleView, conditions: ['not an object'] }, 'conditions'],
      [{ ...denyRoleView, verdict: 'Maybe' }, 'verdict'],
      [{ ...denyRoleView, verdict: 2 }, 'verdict'],
      [{ ...denyRoleView, actions: ['Fly'] }, 'actions'],
      [{ ...denyRoleView, modules: ['Authorization'] }, 'modules'],
      [{ ...denyRoleView, resourceTypes: ['role', 'role'] }, 'resourceTypes'],
      [{ ...denyRoleView, priority: 1.5 }, 'priority'],
      [{ ...denyRoleView, priority: -1 }, 'priority'],
      [{ ...denyRoleView, name: 'x'.repeat(201) }, 'name'],
      [{ ...denyRoleView, name: '   ' }, 'name'],
      [{ ...denyRoleView, description: 'x'.repeat(1001) }, 'description'],
      [{ ...denyRoleView, tenantId: 'default' }, 'tenantId'],
      [{ name: 'no verdict', priority: 1 }, 'verdict'],
    ];
    for (const [body, field] of cases) {
      for (const res of [await ann().post(RULES).send(body), await ann().put(`${RULES}/${existing}`).send(body)]) {
        expect({ body, status: res.status, type: res.headers['content-type'] }).toMatchObject({
          status: 400,
          type: expect.stringContaining('application/problem+json'),
        });
        expect(res.body.code).toBe('Validation.Failed');
        const keys = Object.keys(res.body.errors ?? {});
        expect({ body, keys }).toEqual({ body, keys: expect.arrayContaining([expect.stringContaining(field)]) });
      }
    }
    const codeErrors = await ann()
      .post(RULES)
      .send({ ...denyRoleView, modules: ['Authorization'], resourceTypes: ['role type'] })
      .expect(400);
    expect(codeErrors.body.errors).toEqual({
      modules: ['each value in modules must be a lower-case code (a-z, 0-9, -)'],
      resourceTypes: ['each value in resourceTypes must be a lower-case code (a-z, 0-9, -)'],
    });
    const valueError = await ann()
      .post(RULES)
      .send({ ...denyRoleView, conditions: [{ field: 'ResourceAmount', operator: 'Equals', value: 'ten' }] })
      .expect(400);
    expect(valueError.body.errors['conditions.0.value']).toEqual(['value must be a number for field ResourceAmount']);
    const fieldError = await ann()
      .post(RULES)
      .send({ ...denyRoleView, conditions: [{ field: 'Colour', operator: 'Equals', value: 'red' }] })
      .expect(400);
    expect(fieldError.body.errors['conditions.0.field'][0]).toContain('field must be one of: ResourceStatus');
    expect(fieldError.body.errors['conditions.0.value']).toBeUndefined();
    expect(await state()).toEqual(before);
  });
});

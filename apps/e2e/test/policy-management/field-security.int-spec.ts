import { EventTypes } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const FIELDS = '/api/authorization/field-security';
const A = EventTypes.authorization;

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management field security', () => {
  const platform = new PolicyTestPlatform('fieldsec');
  const roles: Record<string, string> = {};

  beforeAll(async () => {
    await platform.start();
    for (const name of ['clerk', 'intern', 'auditor']) roles[name] = await addRole('default', name);
    for (const [subject, role] of [
      ['dora', 'clerk'],
      ['dora', 'intern'],
      ['dora', 'auditor'],
      ['eli', 'auditor'],
    ] as const) {
      await platform.sql.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('default', $1, $2, $3, 'test')`, [
        subject,
        roles[role],
        role,
      ]);
    }
  }, 90_000);
  afterAll(() => platform.stop());

  async function addRole(tenantId: string, name: string): Promise<string> {
    const [row] = await platform.sql.query(`INSERT INTO authz.role (tenant_id, name) VALUES ($1, $2) RETURNING id`, [tenantId, name]);
    return row.id as string;
  }

  async function state() {
    return {
      policies: await platform.count('field_policy'),
      log: await platform.count('policy_change_log'),
      outbox: await platform.count('outbox_message'),
    };
  }

  const policy = (field: string, role: string, effect: unknown, extra: Record<string, unknown> = {}) => ({
    module: 'billing',
    resourceType: 'invoice',
    field,
    roleId: roles[role],
    effect,
    ...extra,
  });

  describe('upsert', () => {
    let policyId: string;

    it('creates a policy (200), stores the effect as an integer, and records it with its event', async () => {
      const before = await state();
      const res = await platform
        .as()
        .put(FIELDS)
        .send(policy('client.taxId', 'clerk', 'masked'))
        .expect(200);
      policyId = res.body.id;
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        module: 'billing',
        resourceType: 'invoice',
        field: 'client.taxId',
        roleId: roles['clerk'],
        roleName: 'clerk',
        effect: 'masked',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        createdBy: 'admin',
      });
      expect(await state()).toEqual({ policies: before.policies + 1, log: before.log + 1, outbox: before.outbox + 1 });
      const [stored] = await platform.sql.query(`SELECT effect, pg_typeof(effect)::text AS type FROM authz.field_policy WHERE id = $1`, [policyId]);
      expect(stored).toEqual({ effect: 2, type: 'smallint' });
      const [log] = await platform.sql.query(`SELECT * FROM authz.policy_change_log WHERE target_id = $1`, [policyId]);
      expect(log).toMatchObject({ tenant_id: 'default', actor: 'admin', change: 'field-policy.created', target_type: 'field-policy', before: null });
      expect(log.after).toMatchObject({ effect: 'masked', roleName: 'clerk' });
      const [outbox] = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 ORDER BY id DESC LIMIT 1`, [
        A.fieldPolicyChanged,
      ]);
      expect(outbox.envelope).toMatchObject({
        tenantId: 'default',
        payload: { tenantId: 'default', policyId, resourceType: 'invoice', change: 'created' },
      });
    });

    it('changes the effect of the same (module, resource type, field, role), recorded as an update', async () => {
      const before = await state();
      const res = await platform
        .as()
        .put(FIELDS)
        .send(policy('client.taxId', 'clerk', 'hidden'))
        .expect(200);
      expect(res.body).toMatchObject({ id: policyId, effect: 'hidden' });
      expect(await state()).toEqual({ policies: before.policies, log: before.log + 1, outbox: before.outbox + 1 });
      const [log] = await platform.sql.query(`SELECT * FROM authz.policy_change_log WHERE target_id = $1 AND change = 'field-policy.updated'`, [policyId]);
      expect(log.before).toMatchObject({ effect: 'masked' });
      expect(log.after).toMatchObject({ effect: 'hidden' });
      const [outbox] = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 ORDER BY id DESC LIMIT 1`, [
        A.fieldPolicyChanged,
      ]);
      expect(outbox.envelope.payload).toMatchObject({ policyId, change: 'updated' });
    });

    it('writes nothing when the effect is already so', async () => {
      const before = await state();
      const res = await platform
        .as()
        .put(FIELDS)
        .send(policy('client.taxId', 'clerk', 'hidden'))
        .expect(200);
      expect(res.body).toMatchObject({ id: policyId, effect: 'hidden' });
      expect(await state()).toEqual(before);
    });

    it('needs a role of the caller’s tenant: 422 Authorization.FieldSecurity.RoleUnknown, nothing written', async () => {
      const foreignRole = await addRole('acme', 'acme-clerk');
      const before = await state();
      for (const roleId of [foreignRole, '00000000-0000-4000-8000-000000000000']) {
        const res = await platform
          .as()
          .put(FIELDS)
          .send(policy('amount', 'clerk', 'masked', { roleId }))
          .expect(422);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.body.code).toBe('Authorization.FieldSecurity.RoleUnknown');
      }
      expect(await state()).toEqual(before);
    });
  });

  describe('effective policy', () => {
    beforeAll(async () => {
      // dora: clerk (hidden taxId), intern, auditor; eli: auditor only.
      await platform
        .as()
        .put(FIELDS)
        .send(policy('client.taxId', 'auditor', 'read-only'))
        .expect(200);
      await platform
        .as()
        .put(FIELDS)
        .send(policy('amount', 'auditor', 'masked'))
        .expect(200);
      await platform
        .as()
        .put(FIELDS)
        .send(policy('amount', 'intern', 'read-only'))
        .expect(200);
      await platform
        .as()
        .put(FIELDS)
        .send(policy('notes', 'intern', 'read-only'))
        .expect(200);
      await platform
        .as()
        .put(FIELDS)
        .send(policy('notes', 'clerk', 'read-only'))
        .expect(200);
      // Another resource type and another module do not mix in.
      await platform
        .as()
        .put(FIELDS)
        .send(policy('amount', 'clerk', 'hidden', { resourceType: 'payment' }))
        .expect(200);
      await platform
        .as()
        .put(FIELDS)
        .send(policy('amount', 'clerk', 'hidden', { module: 'cases', resourceType: 'invoice' }))
        .expect(200);
    });

    it('gives per field the strictest effect across the subject’s roles (hidden > masked > read-only)', async () => {
      const res = await platform.as().get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=dora`).expect(200);
      expect(res.body).toEqual({
        module: 'billing',
        resourceType: 'invoice',
        subject: 'dora',
        roles: ['auditor', 'clerk', 'intern'],
        fields: [
          { field: 'amount', effect: 'masked', roles: ['auditor'] },
          { field: 'client.taxId', effect: 'hidden', roles: ['clerk'] },
          { field: 'notes', effect: 'read-only', roles: ['clerk', 'intern'] },
        ],
      });
      const eli = await platform.as().get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=eli`).expect(200);
      expect(eli.body.fields).toEqual([
        { field: 'amount', effect: 'masked', roles: ['auditor'] },
        { field: 'client.taxId', effect: 'read-only', roles: ['auditor'] },
      ]);
      const nobody = await platform.as().get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=nobody`).expect(200);
      expect(nobody.body).toMatchObject({ roles: [], fields: [] });
    });

    it('follows a role revocation at the next read', async () => {
      await platform.sql.query(`DELETE FROM authz.user_role WHERE tenant_id = 'default' AND subject = 'dora' AND role_name = 'clerk'`);
      const res = await platform.as().get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=dora`).expect(200);
      expect(res.body.fields).toEqual([
        { field: 'amount', effect: 'masked', roles: ['auditor'] },
        { field: 'client.taxId', effect: 'read-only', roles: ['auditor'] },
        { field: 'notes', effect: 'read-only', roles: ['intern'] },
      ]);
      await platform.sql.query(
        `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('default', 'dora', $1, 'clerk', 'test')`,
        [roles['clerk']],
      );
    });

    it.each([
      'module=billing&resourceType=invoice',
      'module=billing&subject=dora',
      'module=Billing&resourceType=invoice&subject=dora',
      'module=billing&resourceType=invoice&subject=dora&x=1',
    ])('rejects %s with 400', async (query) => {
      const res = await platform.as().get(`${FIELDS}/effective?${query}`).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
    });
  });

  describe('list and delete', () => {
    it('lists by module and resource type, paged, in field and role order', async () => {
      const res = await platform.as().get(`${FIELDS}?module=billing&resourceType=invoice`).expect(200);
      expect(res.body).toMatchObject({ pageIndex: 0, pageSize: 20, totalCount: 6 });
      expect(res.body.items.map((p: { field: string; roleName: string }) => `${p.field}/${p.roleName}`)).toEqual([
        'amount/auditor',
        'amount/intern',
        'client.taxId/auditor',
        'client.taxId/clerk',
        'notes/clerk',
        'notes/intern',
      ]);
      const page = await platform.as().get(`${FIELDS}?module=billing&pageSize=2&pageIndex=1`).expect(200);
      expect(page.body).toMatchObject({ totalCount: 7, pageIndex: 1, pageSize: 2 });
      expect(page.body.items.map((p: { resourceType: string; field: string; roleName: string }) => `${p.resourceType}/${p.field}/${p.roleName}`)).toEqual([
        'invoice/client.taxId/auditor',
        'invoice/client.taxId/clerk',
      ]);
      const byRole = await platform.as().get(`${FIELDS}?roleId=${roles['intern']}`).expect(200);
      expect(byRole.body.totalCount).toBe(2);
    });

    it('deletes (204) with a change-log row and event; a second delete is 404', async () => {
      const [row] = await platform.sql.query(`SELECT id FROM authz.field_policy WHERE field = 'notes' AND role_name = 'intern'`);
      const before = await state();
      await platform.as().delete(`${FIELDS}/${row.id}`).expect(204);
      expect(await state()).toEqual({ policies: before.policies - 1, log: before.log + 1, outbox: before.outbox + 1 });
      const [log] = await platform.sql.query(`SELECT * FROM authz.policy_change_log WHERE target_id = $1 AND change = 'field-policy.deleted'`, [row.id]);
      expect(log.before).toMatchObject({ field: 'notes', roleName: 'intern' });
      expect(log.after).toBeNull();
      const [outbox] = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 ORDER BY id DESC LIMIT 1`, [
        A.fieldPolicyChanged,
      ]);
      expect(outbox.envelope.payload).toMatchObject({ policyId: row.id, change: 'deleted' });
      const again = await platform.as().delete(`${FIELDS}/${row.id}`).expect(404);
      expect(again.body.code).toBe('NotFound');
      await platform.as().delete(`${FIELDS}/not-a-uuid`).expect(404);
    });
  });

  describe('denial', () => {
    it.each([
      ['GET list', () => platform.as('mallory').get(FIELDS)],
      ['GET effective', () => platform.as('mallory').get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=mallory`)],
      [
        'PUT',
        () =>
          platform
            .as('mallory')
            .put(FIELDS)
            .send(policy('amount', 'clerk', 'read-only')),
      ],
      ['DELETE', () => platform.as('mallory').delete(`${FIELDS}/00000000-0000-4000-8000-000000000000`)],
    ])('%s without the permission: 403 Authorization.Denied, nothing changed', async (_route, send) => {
      const [any] = await platform.sql.query(`SELECT id FROM authz.field_policy LIMIT 1`);
      const before = await state();
      const res = await send().expect(403);
      expect(res.body.code).toBe('Authorization.Denied');
      await platform.as('mallory').delete(`${FIELDS}/${any.id}`).expect(403);
      expect(await state()).toEqual(before);
    });

    it('field-security.view cannot change policies', async () => {
      const viewer = await addRole('default', 'field-viewer');
      await platform.sql.query(
        `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
         SELECT 'default', $1, 'field-viewer', p.id, p.code, p.module, 'test' FROM authz.permission p WHERE p.code = 'authorization.field-security.view'`,
        [viewer],
      );
      await platform.sql.query(
        `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('default', 'vic', $1, 'field-viewer', 'test')`,
        [viewer],
      );
      await platform.invalidate(A.userRoleAssigned, 'default', { tenantId: 'default', subject: 'vic' });
      const [any] = await platform.sql.query(`SELECT id FROM authz.field_policy WHERE tenant_id = 'default' LIMIT 1`);
      const before = await state();
      await platform.as('vic').get(FIELDS).expect(200);
      await platform.as('vic').get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=vic`).expect(200);
      await platform
        .as('vic')
        .put(FIELDS)
        .send(policy('amount', 'clerk', 'read-only'))
        .expect(403);
      await platform.as('vic').delete(`${FIELDS}/${any.id}`).expect(403);
      expect(await state()).toEqual(before);
    });
  });

  describe('tenant isolation', () => {
    beforeAll(() => platform.seedTenantAdmin('acme', 'ann'));

    it('another tenant’s policies are invisible and their ids unknown (404, nothing changed)', async () => {
      const [foreign] = await platform.sql.query(`SELECT id FROM authz.field_policy WHERE tenant_id = 'default' LIMIT 1`);
      const list = await platform.as('ann', 'acme').get(FIELDS).expect(200);
      expect(list.body).toMatchObject({ totalCount: 0, items: [] });
      const before = await state();
      const res = await platform.as('ann', 'acme').delete(`${FIELDS}/${foreign.id}`).expect(404);
      expect(res.body.code).toBe('NotFound');
      // Using the other tenant's role id is refused too.
      await platform
        .as('ann', 'acme')
        .put(FIELDS)
        .send(policy('amount', 'clerk', 'hidden'))
        .expect(422);
      expect(await state()).toEqual(before);
      // The same subject name in another tenant has that tenant's roles only.
      const dora = await platform.as('ann', 'acme').get(`${FIELDS}/effective?module=billing&resourceType=invoice&subject=dora`).expect(200);
      expect(dora.body).toMatchObject({ roles: [], fields: [] });
    });
  });

  describe('validation', () => {
    it.each([
      ['an empty body', {}],
      ['an unknown field', policy('amount', 'clerk', 'hidden', { extra: 1 })],
      ['an unknown effect', policy('amount', 'clerk', 'invisible')],
      ['an integer effect', policy('amount', 'clerk', 1)],
      ['a role id that is not a uuid', policy('amount', 'clerk', 'hidden', { roleId: 'clerk' })],
      ['an overlong field', policy('x'.repeat(101), 'clerk', 'hidden')],
      ['an overlong module', policy('amount', 'clerk', 'hidden', { module: 'm'.repeat(61) })],
      ['an upper-case resource type', policy('amount', 'clerk', 'hidden', { resourceType: 'Invoice' })],
      ['a field with blanks', policy('client tax', 'clerk', 'hidden')],
    ])('PUT with %s: 400 Validation.Failed, nothing written', async (_name, body) => {
      const before = await state();
      const res = await platform.as().put(FIELDS).send(body).expect(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.code).toBe('Validation.Failed');
      expect(await state()).toEqual(before);
    });

    it.each(['roleId=nope', 'module=A', 'pageSize=101', 'other=1'])('GET list with %s: 400', async (query) => {
      const res = await platform.as().get(`${FIELDS}?${query}`).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
    });
  });
});

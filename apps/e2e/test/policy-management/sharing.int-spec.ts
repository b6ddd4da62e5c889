import request from 'supertest';
import { EventTypes } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { PolicyTestPlatform } from '../support/policy-platform';

const SHARING = '/api/authorization/sharing';
const A = EventTypes.authorization;

interface Decision {
  outcome: string;
  reasons: Array<{ evaluator: string; verdict: string; reason: string }>;
  dataScope: Record<string, unknown>;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management sharing', () => {
  const platform = new PolicyTestPlatform('sharing');
  beforeAll(() => platform.start(), 90_000);
  afterAll(() => platform.stop());

  /** Asks the decision app over HTTP, as `sub` of `tenantId` itself. */
  async function decide(sub: string, action: string, resourceId = 'c-1', tenantId = 'default', resourceType = 'case'): Promise<Decision> {
    const module = resourceType === 'case' ? 'cases' : resourceType === 'client' ? 'clients' : 'billing';
    const res = await request(platform.decisionInstances[0]!.http)
      .post('/api/authorization/decisions')
      .set('Authorization', `Bearer ${platform.token({ sub, tenantId })}`)
      .send({ resource: { module, resourceType, resourceId }, action })
      .expect(200);
    return res.body as Decision;
  }

  function rebacAllows(decision: Decision): boolean {
    return decision.outcome === 'Permit' && decision.reasons.some((r) => r.evaluator === 'ReBAC' && r.verdict === 'Allow');
  }

  /** Everything a sharing route could write. */
  async function state() {
    return {
      shares: await platform.count('resource_relation'),
      log: await platform.count('policy_change_log'),
      outbox: await platform.count('outbox_message'),
    };
  }

  async function addRole(tenantId: string, name: string): Promise<string> {
    const [row] = await platform.sql.query(`INSERT INTO authz.role (tenant_id, name) VALUES ($1, $2) RETURNING id`, [tenantId, name]);
    return row.id as string;
  }

  describe('a share with a user', () => {
    let shareId: string;

    it('makes ReBAC allow the relation’s actions on the very next decision, and records the change with its event', async () => {
      // Decided (and cached) before the share: not permitted.
      expect((await decide('carol', 'View')).outcome).toBe('NoMatchingPolicy');
      const before = await state();

      const res = await platform
        .as()
        .post(SHARING)
        .send({ resourceType: 'case', resourceId: 'c-1', subject: 'carol', subjectKind: 'user', relation: 'viewer' })
        .expect(201);
      shareId = res.body.id;
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        resourceType: 'case',
        resourceId: 'c-1',
        subject: 'carol',
        subjectKind: 'user',
        relation: 'viewer',
        createdAt: expect.any(String),
        createdBy: 'admin',
      });

      const view = await decide('carol', 'View');
      expect(rebacAllows(view)).toBe(true);
      expect(view.reasons.find((r) => r.evaluator === 'ReBAC')?.reason).toContain('viewer');
      // The DataScope comes from the relation: that very instance.
      expect(view.dataScope).toEqual({ kind: 'instances', tenantId: 'default', resourceType: 'case', resourceIds: ['c-1'] });
      expect((await decide('carol', 'Update')).outcome).not.toBe('Permit');
      expect((await decide('carol', 'View', 'c-2')).outcome).not.toBe('Permit');
      expect((await decide('carol', 'View', 'c-1', 'acme')).outcome).not.toBe('Permit');

      expect(await state()).toEqual({ shares: before.shares + 1, log: before.log + 1, outbox: before.outbox + 1 });
      const [log] = await platform.sql.query(`SELECT * FROM authz.policy_change_log WHERE target_id = $1`, [shareId]);
      expect(log).toMatchObject({ tenant_id: 'default', actor: 'admin', change: 'share.granted', target_type: 'resource-relation', before: null });
      expect(log.after).toMatchObject({ id: shareId, subject: 'carol', relation: 'viewer' });
      const [outbox] = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 ORDER BY id DESC LIMIT 1`, [
        A.relationChanged,
      ]);
      expect(outbox.envelope).toMatchObject({
        eventType: A.relationChanged,
        tenantId: 'default',
        payload: { tenantId: 'default', resourceType: 'case', resourceId: 'c-1', subject: 'carol', subjectKind: 'user', relation: 'viewer', change: 'granted' },
      });
    });

    it('is idempotent: the identical share again answers 200 with the same share and writes nothing', async () => {
      const before = await state();
      const res = await platform
        .as()
        .post(SHARING)
        .send({ resourceType: 'case', resourceId: 'c-1', subject: 'carol', subjectKind: 'user', relation: 'viewer' })
        .expect(200);
      expect(res.body.id).toBe(shareId);
      expect(await state()).toEqual(before);
    });

    it('lists shares by resource and subject, paged', async () => {
      await platform.as().post(SHARING).send({ resourceType: 'case', resourceId: 'c-1', subject: 'erin', subjectKind: 'user', relation: 'member' }).expect(201);
      await platform.as().post(SHARING).send({ resourceType: 'case', resourceId: 'c-7', subject: 'carol', subjectKind: 'user', relation: 'owner' }).expect(201);

      const byResource = await platform.as().get(`${SHARING}?resourceType=case&resourceId=c-1`).expect(200);
      expect(byResource.body).toMatchObject({ pageIndex: 0, pageSize: 20, totalCount: 2 });
      expect(byResource.body.items.map((s: { subject: string }) => s.subject)).toEqual(['carol', 'erin']);

      const bySubject = await platform.as().get(`${SHARING}?subject=carol`).expect(200);
      expect(bySubject.body.items.map((s: { resourceId: string }) => s.resourceId)).toEqual(['c-1', 'c-7']);

      const page = await platform.as().get(`${SHARING}?subject=carol&pageSize=1&pageIndex=1`).expect(200);
      expect(page.body).toMatchObject({ pageIndex: 1, pageSize: 1, totalCount: 2 });
      expect(page.body.items.map((s: { resourceId: string }) => s.resourceId)).toEqual(['c-7']);
    });

    it('revokes: 204, the next decision is no longer permitted, recorded with its event; a second revoke is 404', async () => {
      expect(rebacAllows(await decide('carol', 'View'))).toBe(true);
      const before = await state();
      await platform.as().delete(`${SHARING}/${shareId}`).expect(204);
      expect((await decide('carol', 'View')).outcome).toBe('NoMatchingPolicy');
      expect(await state()).toEqual({ shares: before.shares - 1, log: before.log + 1, outbox: before.outbox + 1 });
      const [log] = await platform.sql.query(`SELECT * FROM authz.policy_change_log WHERE target_id = $1 AND change = 'share.revoked'`, [shareId]);
      expect(log.before).toMatchObject({ id: shareId, subject: 'carol' });
      expect(log.after).toBeNull();
      const [outbox] = await platform.sql.query(`SELECT envelope FROM authz.outbox_message WHERE event_type = $1 ORDER BY id DESC LIMIT 1`, [
        A.relationChanged,
      ]);
      expect(outbox.envelope.payload).toMatchObject({ subject: 'carol', resourceId: 'c-1', change: 'revoked' });

      const again = await platform.as().delete(`${SHARING}/${shareId}`).expect(404);
      expect(again.body.code).toBe('NotFound');
      await platform.as().delete(`${SHARING}/not-a-uuid`).expect(404);
    });

    it.each([
      ['client', 'clients'],
      ['billing', 'billing'],
    ])('shares a %s instance, which ReBAC honours', async (resourceType) => {
      await platform.as().post(SHARING).send({ resourceType, resourceId: 'x-1', subject: 'frank', subjectKind: 'user', relation: 'owner' }).expect(201);
      expect(rebacAllows(await decide('frank', 'Delete', 'x-1', 'default', resourceType))).toBe(true);
    });
  });

  describe('a share with a role', () => {
    let roleId: string;

    beforeAll(async () => {
      roleId = await addRole('default', 'paralegal');
    });

    it('applies to a user from the moment the role is assigned until it is revoked, on the very next decision each time', async () => {
      const share = await platform
        .as()
        .post(SHARING)
        .send({ resourceType: 'case', resourceId: 'c-2', subject: 'paralegal', subjectKind: 'role', relation: 'member' })
        .expect(201);
      expect(share.body).toMatchObject({ subject: 'paralegal', subjectKind: 'role', relation: 'member' });

      // Decided (and cached: decision and relation caches) while dave does not hold the role.
      expect((await decide('dave', 'View', 'c-2')).outcome).toBe('NoMatchingPolicy');

      await platform.sql.query(
        `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('default', 'dave', $1, 'paralegal', 'test')`,
        [roleId],
      );
      await platform.invalidate(A.userRoleAssigned, 'default', { tenantId: 'default', subject: 'dave' });
      const viaRole = await decide('dave', 'View', 'c-2');
      expect(rebacAllows(viaRole)).toBe(true);
      expect(viaRole.reasons.find((r) => r.evaluator === 'ReBAC')?.reason).toContain('member');
      expect(viaRole.dataScope).toEqual({ kind: 'instances', tenantId: 'default', resourceType: 'case', resourceIds: ['c-2'] });
      // Again (a decision-cache hit): the DataScope is recomputed from the relations all the same.
      expect((await decide('dave', 'View', 'c-2')).dataScope).toEqual(viaRole.dataScope);
      expect(rebacAllows(await decide('dave', 'Update', 'c-2'))).toBe(true);
      expect((await decide('dave', 'Delete', 'c-2')).outcome).not.toBe('Permit');
      // Another holder-less user is not reached by the role share.
      expect((await decide('carol', 'View', 'c-2')).outcome).toBe('NoMatchingPolicy');

      await platform.sql.query(`DELETE FROM authz.user_role WHERE tenant_id = 'default' AND subject = 'dave' AND role_id = $1`, [roleId]);
      await platform.invalidate(A.userRoleRevoked, 'default', { tenantId: 'default', subject: 'dave' });
      expect((await decide('dave', 'View', 'c-2')).outcome).toBe('NoMatchingPolicy');
    });

    it('stops applying on the next decision when the role is deleted (its bindings go with it)', async () => {
      const tempRole = await addRole('default', 'temp-team');
      await platform
        .as()
        .post(SHARING)
        .send({ resourceType: 'client', resourceId: 'k-1', subject: 'temp-team', subjectKind: 'role', relation: 'viewer' })
        .expect(201);
      await platform.sql.query(
        `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('default', 'gus', $1, 'temp-team', 'test')`,
        [tempRole],
      );
      await platform.invalidate(A.userRoleAssigned, 'default', { tenantId: 'default', subject: 'gus' });
      expect(rebacAllows(await decide('gus', 'View', 'k-1', 'default', 'client'))).toBe(true);

      await platform.sql.query(`DELETE FROM authz.role WHERE id = $1`, [tempRole]);
      await platform.invalidate(A.roleDeleted, 'default', { tenantId: 'default', roleId: tempRole, roleName: 'temp-team', change: 'deleted' });
      expect((await decide('gus', 'View', 'k-1', 'default', 'client')).outcome).toBe('NoMatchingPolicy');
    });

    it('follows the role routes: a rename keeps the share applying, a delete removes it (a new role of the same name gets nothing)', async () => {
      const created = await platform.as().post('/api/authorization/roles').send({ name: 'intake' }).expect(201);
      const share = await platform
        .as()
        .post(SHARING)
        .send({ resourceType: 'case', resourceId: 'c-9', subject: 'intake', subjectKind: 'role', relation: 'viewer' })
        .expect(201);
      await platform.as().post(`/api/authorization/users/hank/roles/${created.body.id}`).expect(204);
      expect(rebacAllows(await decide('hank', 'View', 'c-9'))).toBe(true);

      await platform.as().put(`/api/authorization/roles/${created.body.id}`).send({ name: 'intake-desk' }).expect(200);
      expect(rebacAllows(await decide('hank', 'View', 'c-9'))).toBe(true);
      const [renamed] = await platform.sql.query(`SELECT subject FROM authz.resource_relation WHERE id = $1`, [share.body.id]);
      expect(renamed.subject).toBe('intake-desk');

      await platform.as().delete(`/api/authorization/roles/${created.body.id}`).expect(204);
      expect(await platform.count('resource_relation', 'id = $1', [share.body.id])).toBe(0);
      const again = await platform.as().post('/api/authorization/roles').send({ name: 'intake-desk' }).expect(201);
      await platform.as().post(`/api/authorization/users/hank/roles/${again.body.id}`).expect(204);
      expect((await decide('hank', 'View', 'c-9')).outcome).toBe('NoMatchingPolicy');
    });

    it('must name a role of the caller’s tenant: 422 Authorization.Sharing.RoleUnknown, nothing written', async () => {
      await addRole('acme', 'acme-only');
      const before = await state();
      for (const subject of ['no-such-role', 'acme-only']) {
        const res = await platform
          .as()
          .post(SHARING)
          .send({ resourceType: 'case', resourceId: 'c-2', subject, subjectKind: 'role', relation: 'viewer' })
          .expect(422);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.body.code).toBe('Authorization.Sharing.RoleUnknown');
      }
      expect(await state()).toEqual(before);
    });
  });

  describe('denial', () => {
    it.each([
      ['GET', () => platform.as('mallory').get(SHARING)],
      [
        'POST',
        () =>
          platform.as('mallory').post(SHARING).send({ resourceType: 'case', resourceId: 'c-1', subject: 'mallory', subjectKind: 'user', relation: 'owner' }),
      ],
      ['DELETE', () => platform.as('mallory').delete(`${SHARING}/00000000-0000-4000-8000-000000000000`)],
    ])('%s without the permission: 403 Authorization.Denied, nothing changed', async (_method, send) => {
      const [anyShare] = await platform.sql.query(`SELECT id FROM authz.resource_relation LIMIT 1`);
      const before = await state();
      const res = await send().expect(403);
      expect(res.body.code).toBe('Authorization.Denied');
      expect(await state()).toEqual(before);
      // A real id changes nothing either.
      await platform.as('mallory').delete(`${SHARING}/${anyShare.id}`).expect(403);
      expect(await state()).toEqual(before);
      expect((await decide('mallory', 'Delete')).outcome).toBe('NoMatchingPolicy');
    });

    it('a permission for one action does not open another: sharing.view cannot share or revoke', async () => {
      const viewerRole = await addRole('default', 'share-viewer');
      await platform.sql.query(
        `INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
         SELECT 'default', $1, 'share-viewer', p.id, p.code, p.module, 'test' FROM authz.permission p WHERE p.code = 'authorization.sharing.view'`,
        [viewerRole],
      );
      await platform.sql.query(
        `INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('default', 'vera', $1, 'share-viewer', 'test')`,
        [viewerRole],
      );
      await platform.invalidate(A.userRoleAssigned, 'default', { tenantId: 'default', subject: 'vera' });
      const [anyShare] = await platform.sql.query(`SELECT id FROM authz.resource_relation WHERE tenant_id = 'default' LIMIT 1`);
      const before = await state();
      await platform.as('vera').get(SHARING).expect(200);
      await platform
        .as('vera')
        .post(SHARING)
        .send({ resourceType: 'case', resourceId: 'c-1', subject: 'vera', subjectKind: 'user', relation: 'owner' })
        .expect(403);
      await platform.as('vera').delete(`${SHARING}/${anyShare.id}`).expect(403);
      expect(await state()).toEqual(before);
    });
  });

  describe('tenant isolation', () => {
    beforeAll(() => platform.seedTenantAdmin('acme', 'ann'));

    it('another tenant’s shares are invisible, and their ids are unknown (404, nothing changed)', async () => {
      const [foreign] = await platform.sql.query(`SELECT id FROM authz.resource_relation WHERE tenant_id = 'default' LIMIT 1`);
      const list = await platform.as('ann', 'acme').get(SHARING).expect(200);
      expect(list.body).toMatchObject({ totalCount: 0, items: [] });
      const before = await state();
      const res = await platform.as('ann', 'acme').delete(`${SHARING}/${foreign.id}`).expect(404);
      expect(res.body.code).toBe('NotFound');
      expect(await state()).toEqual(before);
      expect(await platform.count('resource_relation', 'id = $1', [foreign.id])).toBe(1);
    });

    it('a share applies in its own tenant only', async () => {
      await platform
        .as('ann', 'acme')
        .post(SHARING)
        .send({ resourceType: 'case', resourceId: 'c-9', subject: 'carol', subjectKind: 'user', relation: 'viewer' })
        .expect(201);
      expect(rebacAllows(await decide('carol', 'View', 'c-9', 'acme'))).toBe(true);
      expect((await decide('carol', 'View', 'c-9', 'default')).outcome).toBe('NoMatchingPolicy');
      const mine = await platform.as().get(`${SHARING}?resourceId=c-9`).expect(200);
      expect(mine.body.totalCount).toBe(0);
    });
  });

  describe('validation', () => {
    const valid = { resourceType: 'case', resourceId: 'c-3', subject: 'gina', subjectKind: 'user', relation: 'viewer' };

    it.each([
      ['an empty body', {}],
      ['a missing relation', { ...valid, relation: undefined }],
      ['an unknown field', { ...valid, note: 'x' }],
      ['a resource type ReBAC does not read', { ...valid, resourceType: 'invoice' }],
      ['an unknown relation', { ...valid, relation: 'editor' }],
      ['an unknown subject kind', { ...valid, subjectKind: 'group' }],
      ['an overlong resource id', { ...valid, resourceId: 'x'.repeat(201) }],
      ['an overlong subject', { ...valid, subject: 'x'.repeat(256) }],
      ['an empty subject', { ...valid, subject: '' }],
      ['a subject with surrounding blanks', { ...valid, subject: ' gina' }],
      ['a non-string resource id', { ...valid, resourceId: 42 }],
    ])('POST with %s: 400 Validation.Failed, nothing written', async (_name, body) => {
      const before = await state();
      const res = await platform.as().post(SHARING).send(body).expect(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.code).toBe('Validation.Failed');
      expect(await state()).toEqual(before);
    });

    it.each(['resourceType=invoice', 'pageSize=0', 'unknown=1', `subject=${'x'.repeat(256)}`])('GET with %s: 400', async (query) => {
      const res = await platform.as().get(`${SHARING}?${query}`).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
    });
  });
});

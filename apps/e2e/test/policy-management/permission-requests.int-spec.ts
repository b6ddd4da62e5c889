import supertest from 'supertest';
import { EventTypes } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { expectProblem, PolicyTestPlatform } from '../support/policy-platform';

const BASE = '/api/authorization/permission-requests';
const ROLES = '/api/authorization/roles';
const ROLE_VIEW = 'authorization.role.view';
const APPROVE = 'authorization.permission-requests.approve';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management permission requests', () => {
  // The routes decide here (the workflow path is permission-request-workflow.int-spec.ts).
  const platform = new PolicyTestPlatform('perm-requests', { env: { PERMISSION_REQUEST_APPROVALS: 'direct' } });
  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  const written = async () => ({
    requests: await platform.sql.query(`SELECT id, status, grant_id, decided_by FROM authz.permission_request ORDER BY id`),
    grants: await platform.sql.query(`SELECT id, revoked_at, expires_at FROM authz.temporary_grant ORDER BY id`),
    log: await platform.count('policy_change_log'),
    outbox: await platform.count('outbox_message'),
  });

  const file = async (subject: string, body: object = {}, tenant = 'default') => {
    const res = await platform
      .as(subject, tenant)
      .post(BASE)
      .send({ permissionCodes: [ROLE_VIEW], durationSeconds: 60, reason: 'quarter-end review', ...body })
      .expect(201);
    return res.body as { id: string; status: string; subject: string };
  };

  const outboxPayloads = (type: string, key: string, value: string) =>
    platform.sql
      .query(`SELECT envelope->'payload' AS payload FROM authz.outbox_message WHERE event_type = $1 AND envelope->'payload'->>${`'${key}'`} = $2 ORDER BY id`, [
        type,
        value,
      ])
      .then((rows: Array<{ payload: Record<string, unknown> }>) => rows.map((r) => r.payload));

  it('approval grants the codes with an absolute expiry; the decision stops honouring the grant at its expiry', async () => {
    await platform.as('erin').get(ROLES).expect(403);
    const request = await file('erin');
    expect(request).toMatchObject({ subject: 'erin', status: 'pending', permissionCodes: [ROLE_VIEW], durationSeconds: 60, grantId: null });
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'permission-request.filed' AND actor = 'erin'`, [request.id])).toBe(1);
    expect(await outboxPayloads(EventTypes.authorization.permissionRequestChanged, 'requestId', request.id)).toEqual([
      { tenantId: 'default', requestId: request.id, subject: 'erin', status: 'pending', approval: 'route' },
    ]);
    const mine = await platform.as('erin').get(`${BASE}/mine`).expect(200);
    expect(mine.body.items.map((r: { id: string }) => r.id)).toEqual([request.id]);
    await platform.as('erin').get(ROLES).expect(403);

    const approved = await platform.as().post(`${BASE}/${request.id}/approve`).send({ note: 'ok for a minute' }).expect(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: 'admin', decisionNote: 'ok for a minute' });
    const grantId = approved.body.grantId as string;
    expect(new Date(approved.body.grantExpiresAt).getTime() - new Date(approved.body.decidedAt).getTime()).toBe(60_000);
    const [grant] = await platform.sql.query(`SELECT * FROM authz.temporary_grant WHERE id = $1`, [grantId]);
    expect(grant).toMatchObject({
      tenant_id: 'default',
      subject: 'erin',
      permission_codes: [ROLE_VIEW],
      source: 'permission-request',
      source_id: request.id,
      created_by: 'admin',
      revoked_at: null,
    });
    expect(new Date(grant.expires_at).toISOString()).toBe(approved.body.grantExpiresAt);
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'permission-request.approved'`, [request.id])).toBe(1);
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'temporary-grant.granted'`, [grantId])).toBe(1);
    expect(await outboxPayloads(EventTypes.authorization.temporaryGrantChanged, 'grantId', grantId)).toEqual([
      { tenantId: 'default', grantId, subject: 'erin', permissionCodes: [ROLE_VIEW], expiresAt: approved.body.grantExpiresAt, change: 'granted' },
    ]);

    await platform.as('erin').get(ROLES).expect(200);
    await platform.as('erin').get(ROLES).expect(200); // now cached
    // A permission the request did not name stays denied.
    await platform.as('erin').get(BASE).expect(403);

    // Bring the expiry close instead of waiting a minute; the cache entry must not outlive it.
    await platform.sql.query(`UPDATE authz.temporary_grant SET expires_at = now() + interval '2 seconds' WHERE id = $1`, [grantId]);
    const [{ expires }] = await platform.sql.query(`SELECT expires_at AS expires FROM authz.temporary_grant WHERE id = $1`, [grantId]);
    await platform.invalidate(EventTypes.authorization.temporaryGrantChanged, 'default', { tenantId: 'default', subject: 'erin', grantId });
    const statuses: number[] = [];
    const deadline = new Date(expires).getTime() + 2000;
    for (;;) {
      const { status } = await platform.as('erin').get(ROLES);
      statuses.push(status);
      if (status === 403 || Date.now() > deadline) break;
      await sleep(100);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses[statuses.length - 1]).toBe(403);
    expect(Date.now()).toBeGreaterThanOrEqual(new Date(expires).getTime());
    expect(Date.now()).toBeLessThanOrEqual(new Date(expires).getTime() + 2000);

    const expired = await platform.as('erin').get(`${BASE}/mine?status=expired`).expect(200);
    expect(expired.body.items.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[request.id, 'expired']]);
    expect((await platform.as('erin').get(`${BASE}/mine?status=approved`).expect(200)).body.items).toEqual([]);
    const before = await written();
    expectProblem(await platform.as().post(`${BASE}/${request.id}/revoke`), 409, 'Authorization.RequestNotRevocable');
    expect(await written()).toEqual(before);
  }, 30_000);

  it('revoke ends an approved grant early: the next request is denied at once', async () => {
    const request = await file('erin', { durationSeconds: 3600 });
    const approved = await platform.as().post(`${BASE}/${request.id}/approve`).send({}).expect(200);
    await platform.as('erin').get(ROLES).expect(200);
    await platform.as('erin').get(ROLES).expect(200);

    const revoked = await platform.as().post(`${BASE}/${request.id}/revoke`).expect(200);
    expect(revoked.body).toMatchObject({ id: request.id, status: 'revoked', grantId: approved.body.grantId });
    await platform.as('erin').get(ROLES).expect(403);

    const [grant] = await platform.sql.query(`SELECT revoked_at FROM authz.temporary_grant WHERE id = $1`, [approved.body.grantId]);
    expect(grant.revoked_at).not.toBeNull();
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'permission-request.revoked'`, [request.id])).toBe(1);
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'temporary-grant.revoked'`, [approved.body.grantId])).toBe(1);
    const events = await outboxPayloads(EventTypes.authorization.temporaryGrantChanged, 'grantId', approved.body.grantId);
    expect(events.map((p) => [p['subject'], p['change']])).toEqual([
      ['erin', 'granted'],
      ['erin', 'revoked'],
    ]);

    const before = await written();
    expectProblem(await platform.as().post(`${BASE}/${request.id}/revoke`), 409, 'Authorization.RequestNotRevocable');
    expectProblem(await platform.as().post(`${BASE}/${request.id}/approve`).send({}), 409, 'Authorization.RequestNotPending');
    expect(await written()).toEqual(before);
  });

  it('decides a request once: double approval (even concurrent) is 409 with a single grant; reject and approve exclude each other', async () => {
    const request = await file('hugo');
    await platform.as().post(`${BASE}/${request.id}/approve`).send({}).expect(200);
    const before = await written();
    expectProblem(await platform.as().post(`${BASE}/${request.id}/approve`).send({}), 409, 'Authorization.RequestNotPending');
    expectProblem(await platform.as().post(`${BASE}/${request.id}/reject`).send({}), 409, 'Authorization.RequestNotPending');
    expect(await written()).toEqual(before);
    expect(await platform.count('temporary_grant', `source = 'permission-request' AND source_id = $1`, [request.id])).toBe(1);

    await platform.grantRole('default', 'quinn', 'quinn-approver', [APPROVE]);
    const racing = await file('hugo');
    const raced = await Promise.all([
      platform.as().post(`${BASE}/${racing.id}/approve`).send({}),
      platform.as('quinn').post(`${BASE}/${racing.id}/approve`).send({}),
    ]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await platform.count('temporary_grant', `source_id = $1`, [racing.id])).toBe(1);

    const rejected = await file('hugo');
    const res = await platform.as().post(`${BASE}/${rejected.id}/reject`).send({ note: 'not needed' }).expect(200);
    expect(res.body).toMatchObject({ status: 'rejected', decidedBy: 'admin', decisionNote: 'not needed', grantId: null });
    expect(await platform.count('temporary_grant', `source_id = $1`, [rejected.id])).toBe(0);
    expect(await platform.count('policy_change_log', `target_id = $1 AND change = 'permission-request.rejected'`, [rejected.id])).toBe(1);
    expect((await outboxPayloads(EventTypes.authorization.permissionRequestChanged, 'requestId', rejected.id)).map((p) => p['status'])).toEqual([
      'pending',
      'rejected',
    ]);
    expectProblem(await platform.as().post(`${BASE}/${rejected.id}/approve`).send({}), 409, 'Authorization.RequestNotPending');
    expect(await platform.count('temporary_grant', `source_id = $1`, [rejected.id])).toBe(0);

    const listed = await platform.as().get(`${BASE}?status=rejected`).expect(200);
    expect(listed.body.items.map((r: { id: string }) => r.id)).toContain(rejected.id);
    expect(listed.body.items.every((r: { status: string }) => r.status === 'rejected')).toBe(true);
  });

  it('a requester may not approve its own request (403), though another approver may', async () => {
    await platform.grantRole('default', 'sam', 'sam-approver', [APPROVE]);
    const request = await file('sam');
    const before = await written();
    expectProblem(await platform.as('sam').post(`${BASE}/${request.id}/approve`).send({}), 403, 'Authorization.SelfApprovalForbidden');
    expect(await written()).toEqual(before);
    await platform.as().post(`${BASE}/${request.id}/approve`).send({}).expect(200);
  });

  it('denies the decision and listing routes to a caller without the permission, with nothing changed', async () => {
    const request = await file('iris');
    const approved = await file('iris');
    await platform.as().post(`${BASE}/${approved.id}/approve`).send({}).expect(200);
    const before = await written();
    expectProblem(await platform.as('bob').get(BASE), 403, 'Authorization.Denied');
    expectProblem(await platform.as('bob').post(`${BASE}/${request.id}/approve`).send({}), 403, 'Authorization.Denied');
    expectProblem(await platform.as('bob').post(`${BASE}/${request.id}/reject`).send({}), 403, 'Authorization.Denied');
    expectProblem(await platform.as('bob').post(`${BASE}/${approved.id}/revoke`), 403, 'Authorization.Denied');
    // Approve alone gives neither Reject nor Revoke nor View.
    await platform.grantRole('default', 'olga', 'olga-approver', [APPROVE]);
    expectProblem(await platform.as('olga').post(`${BASE}/${request.id}/reject`).send({}), 403, 'Authorization.Denied');
    expectProblem(await platform.as('olga').post(`${BASE}/${approved.id}/revoke`), 403, 'Authorization.Denied');
    expectProblem(await platform.as('olga').get(BASE), 403, 'Authorization.Denied');
    expect(await written()).toEqual(before);
    // Filing and reading one's own requests need no permission, but a token.
    await platform.as('bob').get(`${BASE}/mine`).expect(200);
    await supertest(platform.policy.http).get(`${BASE}/mine`).expect(401);
  });

  it('leaves a request whose approval runs through a workflow instance to that instance (409 on the routes)', async () => {
    const request = await file('nina');
    await platform.sql.query(`UPDATE authz.permission_request SET workflow_instance_id = 'wf-42' WHERE id = $1`, [request.id]);
    const before = await written();
    expectProblem(await platform.as().post(`${BASE}/${request.id}/approve`).send({}), 409, 'Authorization.RequestDecidedByWorkflow');
    expectProblem(await platform.as().post(`${BASE}/${request.id}/reject`).send({}), 409, 'Authorization.RequestDecidedByWorkflow');
    expect(await written()).toEqual(before);
    const mine = await platform.as('nina').get(`${BASE}/mine`).expect(200);
    expect(mine.body.items[0]).toMatchObject({ id: request.id, status: 'pending', workflowInstanceId: 'wf-42' });
  });

  it('only a user files for itself: an application or a delegate is refused (403), nothing written', async () => {
    const before = await written();
    const body = { permissionCodes: [ROLE_VIEW], durationSeconds: 60, reason: 'x' };
    expectProblem(await platform.as('app-1', 'default', { clientId: 'app-1' }).post(BASE).send(body), 403, 'Authorization.RequestRequiresUser');
    expectProblem(await platform.as('admin', 'default', { actor: 'frank' }).post(BASE).send(body), 403, 'Authorization.RequestRequiresUser');
    expect(await written()).toEqual(before);
  });

  it('caps pending requests per user at 10 (409)', async () => {
    for (let i = 0; i < 10; i++) await file('pat');
    const before = await written();
    const res = await platform
      .as('pat')
      .post(BASE)
      .send({ permissionCodes: [ROLE_VIEW], durationSeconds: 60, reason: 'again' });
    expectProblem(res, 409, 'Authorization.TooManyPendingRequests');
    expect(await written()).toEqual(before);
  });

  it("treats another tenant's requests as unknown (404, nothing changed) and never lists them", async () => {
    const pending = await file('jon');
    const approved = await file('jon');
    await platform.as().post(`${BASE}/${approved.id}/approve`).send({}).expect(200);
    const before = await written();
    const acme = platform.as('ann', 'acme');
    expectProblem(await acme.post(`${BASE}/${pending.id}/approve`).send({}), 404, 'NotFound');
    expectProblem(await acme.post(`${BASE}/${pending.id}/reject`).send({}), 404, 'NotFound');
    expectProblem(await acme.post(`${BASE}/${approved.id}/revoke`), 404, 'NotFound');
    expectProblem(await acme.post(`${BASE}/6f1c2b1e-4a1d-4c1b-9a8e-0f3a7b9c2d10/approve`).send({}), 404, 'NotFound');
    expect(await written()).toEqual(before);
    expect((await acme.get(BASE).expect(200)).body.items).toEqual([]);
    // The same subject name in another tenant is another subject.
    expect((await platform.as('jon', 'acme').get(`${BASE}/mine`).expect(200)).body.items).toEqual([]);
  });

  it('rejects malformed requests with 400 problem+json (and unknown codes with 422), writing nothing', async () => {
    const request = await file('kim');
    const before = await written();
    const valid = { permissionCodes: [ROLE_VIEW], durationSeconds: 60, reason: 'x' };
    const cases: Array<[object, string]> = [
      [{ ...valid, durationSeconds: 59 }, 'durationSeconds'],
      [{ ...valid, durationSeconds: 30 * 86400 + 1 }, 'durationSeconds'],
      [{ ...valid, durationSeconds: 90.5 }, 'durationSeconds'],
      [{ ...valid, durationSeconds: '60' }, 'durationSeconds'],
      [{ ...valid, reason: '' }, 'reason'],
      [{ ...valid, reason: 'r'.repeat(1001) }, 'reason'],
      [{ permissionCodes: [ROLE_VIEW], durationSeconds: 60 }, 'reason'],
      [{ ...valid, subject: 'someone-else' }, 'subject'],
      [{ ...valid, permissionCodes: [] }, 'permissionCodes'],
      [{ ...valid, permissionCodes: [ROLE_VIEW, ROLE_VIEW] }, 'permissionCodes'],
      [{ ...valid, permissionCodes: Array.from({ length: 51 }, (_, i) => `authorization.r${i}.view`) }, 'permissionCodes'],
      [{ ...valid, permissionCodes: ['x'.repeat(201)] }, 'permissionCodes'],
    ];
    for (const [body, field] of cases) {
      const res = await platform.as('kim').post(BASE).send(body);
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors ?? {}).some((k) => k.startsWith(field))).toBe(true);
    }
    expectProblem(
      await platform
        .as()
        .post(`${BASE}/${request.id}/approve`)
        .send({ note: 'n'.repeat(1001) }),
      400,
      'Validation.Failed',
    );
    expectProblem(await platform.as().post(`${BASE}/${request.id}/reject`).send({ reason: 'no' }), 400, 'Validation.Failed');
    expectProblem(await platform.as().post(`${BASE}/not-a-uuid/approve`).send({}), 400, 'Validation.Failed');
    expectProblem(await platform.as().get(`${BASE}?status=lost`), 400, 'Validation.Failed');
    const unknown = await platform
      .as('kim')
      .post(BASE)
      .send({ ...valid, permissionCodes: [ROLE_VIEW, 'authorization.nothing.view'] });
    expectProblem(unknown, 422, 'Authorization.PermissionUnknown');
    expect(unknown.body.detail).toContain('authorization.nothing.view');
    expect(await written()).toEqual(before);
  });
});

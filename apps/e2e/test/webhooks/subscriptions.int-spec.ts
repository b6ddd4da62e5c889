import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AnyRpcContract, TrustedCaller, WebhookSubscriptionView, WebhookSubscriptionWithSecret, WebhooksRpc } from '@lp/contracts';
import { RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { SubscriptionSecrets, WebhookSubscriptionEntity } from '@lp/service/webhook-dispatcher';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';

const SUBSCRIPTIONS = '/api/webhooks/subscriptions';
const VIEW = 'webhooks.subscription.view';
const CREATE = 'webhooks.subscription.create';
const UPDATE = 'webhooks.subscription.update';
const DELETE = 'webhooks.subscription.delete';
const MANAGE = 'webhooks.subscription.manage';
const ALL = [VIEW, CREATE, UPDATE, DELETE, MANAGE];
const OVERLAP_SECONDS = 3600;
const TENANT_B = 'wh-globex';

const body = (change: Record<string, unknown> = {}) => ({
  callbackUrl: 'https://hooks.example.com/platform?team=7',
  eventTypes: ['ticket.*', 'case.created'],
  ...change,
});
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const VIEW_FIELDS = [
  'callbackUrl',
  'createdAt',
  'createdBy',
  'deactivatedReason',
  'description',
  'effectiveMaxRetries',
  'eventTypes',
  'id',
  'isActive',
  'maxRetries',
  'previousSecretExpiresAt',
  'previousSecretFingerprint',
  'revision',
  'secretFingerprint',
  'updatedAt',
  'updatedBy',
];

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'webhook-dispatcher: subscriptions over HTTP (and the RPC list)', () => {
  const platform = new OperationsTestPlatform('wh-subs', {
    env: { WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS: String(OVERLAP_SECONDS), WEBHOOK_MAX_RETRIES: '5' },
  });
  let sql: DataSource;
  let rpc: RpcClient;

  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('webhook-dispatcher').http, platform.token({ sub, tenantId }));
  const caller = (subject: string, tenantId = 'default'): TrustedCaller => ({ kind: 'user', subject, tenantId, scopes: [], claimsDigest: subject });
  const call = <C extends AnyRpcContract>(contract: C, subject: string, payload: unknown, tenantId = 'default') =>
    rpc.call(contract, { caller: caller(subject, tenantId), payload } as never).then(
      (reply) => ({ reply: reply as { items: WebhookSubscriptionView[]; totalCount: number }, problem: undefined }),
      (error: unknown) => {
        if (!(error instanceof RpcRemoteError)) throw error;
        return { reply: undefined, problem: error.problem };
      },
    );
  /** The stored row, all columns. */
  const rowOf = async (id: string): Promise<Record<string, unknown>> => (await sql.query(`SELECT * FROM webhooks.subscription WHERE id = $1`, [id]))[0];
  /** Everything a subscription route can write: nothing of it may change after a refusal. */
  const written = async () =>
    (await sql.query(`SELECT coalesce(jsonb_agg(s ORDER BY s.id), '[]'::jsonb) AS rows FROM webhooks.subscription s`))[0].rows as unknown[];
  const create = async (change: Record<string, unknown> = {}, sub = 'wendy', tenantId = 'default') =>
    (await as(sub, tenantId).post(SUBSCRIPTIONS).send(body(change)).expect(201)).body as WebhookSubscriptionWithSecret;
  const pendingDelivery = async (subscriptionId: string, tenantId = 'default') => {
    const id = randomUUID();
    await sql.query(
      `INSERT INTO webhooks.delivery (id, tenant_id, subscription_id, event_id, event_type, payload, occurred_at, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, 'ticket.created', '{}'::jsonb, now(), 'pending', now() + interval '1 minute')`,
      [id, tenantId, subscriptionId, randomUUID()],
    );
    return id;
  };
  const deliveryOf = async (id: string) => (await sql.query(`SELECT status, next_attempt_at, completed_at FROM webhooks.delivery WHERE id = $1`, [id]))[0];

  beforeAll(async () => {
    await platform.start();
    sql = platform.service('webhook-dispatcher').app.get(DataSource);
    rpc = platform.policy.app.get(RpcClient);
    await platform.grantRole('default', 'wendy', 'webhook-admin', ALL);
    await platform.grantRole('default', 'vera', 'webhook-viewer', [VIEW]);
    // One holder per permission but the one under test: each route's denial comes from its own code.
    for (const missing of ALL) {
      await platform.grantRole(
        'default',
        `no-${missing.split('.')[2]}`,
        `webhook-without-${missing.split('.')[2]}`,
        ALL.filter((c) => c !== missing),
      );
    }
    await platform.grantRole(TENANT_B, 'bob', 'webhook-admin', ALL);
  }, 180_000);
  afterAll(() => platform.stop());

  describe('create and read', () => {
    let created: WebhookSubscriptionWithSecret;

    it('creates a subscription and shows its `whsec_` secret this once, fingerprinted by its SHA-256', async () => {
      created = await create({ description: 'CRM sync', maxRetries: 3 });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        callbackUrl: 'https://hooks.example.com/platform?team=7',
        eventTypes: ['ticket.*', 'case.created'],
        description: 'CRM sync',
        isActive: true,
        deactivatedReason: null,
        maxRetries: 3,
        effectiveMaxRetries: 3,
        secretFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        previousSecretFingerprint: null,
        previousSecretExpiresAt: null,
        revision: 1,
        createdAt: expect.any(String),
        createdBy: 'wendy',
        updatedAt: expect.any(String),
        updatedBy: 'wendy',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(created.secretFingerprint).toBe(sha256(created.secret));
    });

    it('keeps the secret encrypted at rest: the row holds neither the secret nor its base64 body', async () => {
      const row = await rowOf(created.id);
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(created.secret);
      expect(stored).not.toContain(created.secret.slice('whsec_'.length, 30));
      expect(row.secret_fingerprint).toBe(sha256(created.secret));
      expect(row.secret_key_version).toBe(1);
      expect(Buffer.from(row.secret_ciphertext as string, 'base64').length).toBeGreaterThan(12 + 16);
    });

    it('reads it back without any secret, over GET, the list and RPC alike', async () => {
      const { secret: _secret, ...view } = created;
      const got = (await as('vera').get(`${SUBSCRIPTIONS}/${created.id}`).expect(200)).body;
      expect(got).toEqual(view);
      expect(Object.keys(got).sort()).toEqual(VIEW_FIELDS);
      const listed = (await as('vera').get(SUBSCRIPTIONS).expect(200)).body.items as WebhookSubscriptionView[];
      expect(listed.find((s) => s.id === created.id)).toEqual(view);
      const { reply } = await call(WebhooksRpc.listSubscriptions, 'vera', {});
      expect(reply?.items.find((s) => s.id === created.id)).toEqual(view);
      const everything = JSON.stringify([got, listed, reply]);
      expect(everything).not.toContain(created.secret);
      expect(everything).not.toContain('ciphertext');
    });

    it('defaults: active, no description, the dispatcher’s retries', async () => {
      const plain = await create({ callbackUrl: 'http://127.0.0.1:9/in' });
      expect(plain).toMatchObject({ isActive: true, description: null, maxRetries: null, effectiveMaxRetries: 5 });
    });

    // Each passed validation and then answered 500 from the table's CHECK (callback_url ~ '^https?://').
    it.each(['HTTP://127.0.0.1/x', 'http:/127.0.0.1/x', 'http:\\\\127.0.0.1\\x'])('stores %s as http://127.0.0.1/x, on create and on update', async (given) => {
      const made = await create({ callbackUrl: given });
      expect(made.callbackUrl).toBe('http://127.0.0.1/x');
      expect((await rowOf(made.id))['callback_url']).toBe('http://127.0.0.1/x');
      const changed = await as('wendy')
        .patch(`${SUBSCRIPTIONS}/${made.id}`)
        .send({ callbackUrl: given.replace('/x', '/y').replace('\\x', '\\y') })
        .expect(200);
      expect(changed.body.callbackUrl).toBe('http://127.0.0.1/y');
      await as('wendy').delete(`${SUBSCRIPTIONS}/${made.id}`).expect(204);
    });

    it('answers another tenant’s subscription, a malformed id and an unknown id with the same 404', async () => {
      for (const id of [created.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        expectProblem(await as('bob', TENANT_B).get(`${SUBSCRIPTIONS}/${id}`), 404, 'NotFound');
      }
    });
  });

  describe('list: paging, newest first, filters', () => {
    const tenant = 'wh-list';
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      await platform.grantRole(tenant, 'lena', 'webhook-admin', ALL);
      ids.ticket = (await create({ eventTypes: ['ticket.*'] }, 'lena', tenant)).id;
      ids.exact = (await create({ eventTypes: ['ticket.created'] }, 'lena', tenant)).id;
      ids.suffix = (await create({ eventTypes: ['*.created'], isActive: false }, 'lena', tenant)).id;
      ids.chat = (await create({ eventTypes: ['chat.message.sent', 'ticket.updated'] }, 'lena', tenant)).id;
      ids.workflow = (await create({ eventTypes: ['workflow.*'], isActive: false }, 'lena', tenant)).id;
    });

    it('pages newest first', async () => {
      const first = (await as('lena', tenant).get(`${SUBSCRIPTIONS}?pageIndex=0&pageSize=2`).expect(200)).body;
      expect(first).toMatchObject({ pageIndex: 0, pageSize: 2, totalCount: 5 });
      expect(first.items.map((s: WebhookSubscriptionView) => s.id)).toEqual([ids.workflow, ids.chat]);
      const last = (await as('lena', tenant).get(`${SUBSCRIPTIONS}?pageIndex=2&pageSize=2`).expect(200)).body;
      expect(last.items.map((s: WebhookSubscriptionView) => s.id)).toEqual([ids.ticket]);
      expectProblem(await as('lena', tenant).get(`${SUBSCRIPTIONS}?pageSize=500`), 400, 'Validation.Failed');
      expectProblem(await as('lena', tenant).get(`${SUBSCRIPTIONS}?pageIndex=-1`), 400, 'Validation.Failed');
    });

    it('filters by isActive and by the event type the patterns would match (exact, module and suffix forms)', async () => {
      const idsOf = async (query: string) =>
        ((await as('lena', tenant).get(`${SUBSCRIPTIONS}?${query}`).expect(200)).body.items as WebhookSubscriptionView[]).map((s) => s.id);
      expect(await idsOf('isActive=false')).toEqual([ids.workflow, ids.suffix]);
      expect(await idsOf('isActive=true')).toEqual([ids.chat, ids.exact, ids.ticket]);
      expect(await idsOf('eventType=ticket.created')).toEqual([ids.suffix, ids.exact, ids.ticket]);
      expect(await idsOf('eventType=ticket.created&isActive=true')).toEqual([ids.exact, ids.ticket]);
      expect(await idsOf('eventType=ticket.updated')).toEqual([ids.chat, ids.ticket]);
      expect(await idsOf('eventType=case.created')).toEqual([ids.suffix]);
      expect(await idsOf('eventType=workflow.instance.completed')).toEqual([ids.workflow]);
      expect(await idsOf('eventType=catalog.item.deleted')).toEqual([]);
      expectProblem(await as('lena', tenant).get(`${SUBSCRIPTIONS}?eventType=ticket.*`), 400, 'Validation.Failed');
      expectProblem(await as('lena', tenant).get(`${SUBSCRIPTIONS}?isActive=yes`), 400, 'Validation.Failed');
    });

    it('lists over RPC with the same paging and isActive filter', async () => {
      const { reply } = await call(WebhooksRpc.listSubscriptions, 'lena', { pageSize: 10, isActive: false }, tenant);
      expect(reply).toMatchObject({ totalCount: 2, pageIndex: 0, pageSize: 10 });
      expect(reply?.items.map((s) => s.id)).toEqual([ids.workflow, ids.suffix]);
      expect((await call(WebhooksRpc.listSubscriptions, 'lena', { pageSize: 1000 }, tenant)).problem).toMatchObject({ status: 400, code: 'Validation.Failed' });
    });

    it('shows one tenant nothing of another’s', async () => {
      const theirs = (await as('bob', TENANT_B).get(`${SUBSCRIPTIONS}?pageSize=100`).expect(200)).body.items as WebhookSubscriptionView[];
      expect(theirs.map((s) => s.id).filter((id) => Object.values(ids).includes(id))).toEqual([]);
      expect((await call(WebhooksRpc.listSubscriptions, 'bob', {}, TENANT_B)).reply?.items.some((s) => Object.values(ids).includes(s.id))).toBe(false);
    });
  });

  describe('update', () => {
    it('changes any of the fields, one revision per change, recording who', async () => {
      const created = await create();
      const res = await as('no-view')
        .patch(`${SUBSCRIPTIONS}/${created.id}`)
        .send({ callbackUrl: 'https://other.example.com/in', eventTypes: ['chat.*'], description: 'moved', maxRetries: 0 })
        .expect(200);
      expect(res.body).toMatchObject({
        callbackUrl: 'https://other.example.com/in',
        eventTypes: ['chat.*'],
        description: 'moved',
        maxRetries: 0,
        effectiveMaxRetries: 0,
        revision: 2,
        updatedBy: 'no-view',
        createdBy: 'wendy',
        secretFingerprint: created.secretFingerprint,
      });
      expect(res.body.secret).toBeUndefined();
      const back = (await as('wendy').patch(`${SUBSCRIPTIONS}/${created.id}`).send({ maxRetries: null, description: null }).expect(200)).body;
      expect(back).toMatchObject({ maxRetries: null, effectiveMaxRetries: 5, description: null, revision: 3 });
      // Nothing changes: nothing written, the revision stays.
      expect((await as('wendy').patch(`${SUBSCRIPTIONS}/${created.id}`).send({ maxRetries: null }).expect(200)).body.revision).toBe(3);
    });

    it('clears the dispatcher’s deactivation reason when turned back on', async () => {
      const created = await create();
      await sql.query(`UPDATE webhooks.subscription SET is_active = false, deactivated_reason = 'gone' WHERE id = $1`, [created.id]);
      expect((await as('wendy').get(`${SUBSCRIPTIONS}/${created.id}`).expect(200)).body).toMatchObject({ isActive: false, deactivatedReason: 'gone' });
      const on = (await as('wendy').patch(`${SUBSCRIPTIONS}/${created.id}`).send({ isActive: true }).expect(200)).body;
      expect(on).toMatchObject({ isActive: true, deactivatedReason: null, revision: 2 });
      const off = (await as('wendy').patch(`${SUBSCRIPTIONS}/${created.id}`).send({ isActive: false }).expect(200)).body;
      expect(off).toMatchObject({ isActive: false, deactivatedReason: null, revision: 3 });
    });
  });

  describe('delete', () => {
    it('soft-deletes, cancels the pending deliveries in the same transaction, and answers 404 afterwards', async () => {
      const created = await create();
      const other = await create();
      const pending = [await pendingDelivery(created.id), await pendingDelivery(created.id)];
      const untouched = await pendingDelivery(other.id);
      const done = await pendingDelivery(created.id);
      await sql.query(`UPDATE webhooks.delivery SET status = 'succeeded', next_attempt_at = NULL, completed_at = now() - interval '1 hour' WHERE id = $1`, [
        done,
      ]);

      await as('no-view').delete(`${SUBSCRIPTIONS}/${created.id}`).expect(204);

      for (const id of pending) expect(await deliveryOf(id)).toMatchObject({ status: 'cancelled', next_attempt_at: null, completed_at: expect.any(Date) });
      expect(await deliveryOf(untouched)).toMatchObject({ status: 'pending', completed_at: null });
      const finished = await deliveryOf(done);
      expect(finished.status).toBe('succeeded');
      expect(Date.now() - (finished.completed_at as Date).getTime()).toBeGreaterThan(30 * 60_000);

      const row = await rowOf(created.id);
      expect(row).toMatchObject({ deleted_by: 'no-view', deleted_at: expect.any(Date) });
      expectProblem(await as('wendy').get(`${SUBSCRIPTIONS}/${created.id}`), 404, 'NotFound');
      expectProblem(await as('wendy').patch(`${SUBSCRIPTIONS}/${created.id}`).send({ isActive: false }), 404, 'NotFound');
      expectProblem(await as('wendy').post(`${SUBSCRIPTIONS}/${created.id}/rotate-secret`).send({}), 404, 'NotFound');
      expectProblem(await as('wendy').delete(`${SUBSCRIPTIONS}/${created.id}`), 404, 'NotFound');
      const listed = (await as('wendy').get(`${SUBSCRIPTIONS}?pageSize=100`).expect(200)).body.items as WebhookSubscriptionView[];
      expect(listed.map((s) => s.id)).not.toContain(created.id);
    });
  });

  describe('rotate the signing secret', () => {
    it('shows a new secret once; the old one signs too for the overlap, then only the new one', async () => {
      const created = await create();
      const rotated = (await as('no-view').post(`${SUBSCRIPTIONS}/${created.id}/rotate-secret`).expect(200)).body as WebhookSubscriptionWithSecret;
      expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(rotated.secret).not.toBe(created.secret);
      expect(rotated).toMatchObject({
        secretFingerprint: sha256(rotated.secret),
        previousSecretFingerprint: created.secretFingerprint,
        revision: 2,
        updatedBy: 'no-view',
      });
      const expiresAt = Date.parse(rotated.previousSecretExpiresAt as string);
      expect(expiresAt - Date.parse(rotated.updatedAt)).toBe(OVERLAP_SECONDS * 1000);
      expect((await as('wendy').get(`${SUBSCRIPTIONS}/${created.id}`).expect(200)).body).toMatchObject({
        previousSecretFingerprint: created.secretFingerprint,
        previousSecretExpiresAt: rotated.previousSecretExpiresAt,
      });

      const secrets = platform.service('webhook-dispatcher').app.get(SubscriptionSecrets);
      const entity = await sql.getRepository(WebhookSubscriptionEntity).findOneByOrFail({ id: created.id });
      expect(secrets.signingSecretsOf(entity, new Date(expiresAt - 1000))).toEqual([rotated.secret, created.secret]);
      expect(secrets.signingSecretsOf(entity, new Date(expiresAt + 1000))).toEqual([rotated.secret]);
      expect(JSON.stringify(await rowOf(created.id))).not.toContain(rotated.secret);
    });

    it('rotating again during the overlap makes the then-current secret the previous one; overlap 0 drops it at once', async () => {
      const created = await create();
      const first = (await as('wendy').post(`${SUBSCRIPTIONS}/${created.id}/rotate-secret`).send({ overlapSeconds: 60 }).expect(200)).body;
      expect(Date.parse(first.previousSecretExpiresAt) - Date.parse(first.updatedAt)).toBe(60_000);
      const second = (await as('wendy').post(`${SUBSCRIPTIONS}/${created.id}/rotate-secret`).send({}).expect(200)).body;
      expect(second.previousSecretFingerprint).toBe(first.secretFingerprint);
      const secrets = platform.service('webhook-dispatcher').app.get(SubscriptionSecrets);
      const during = await sql.getRepository(WebhookSubscriptionEntity).findOneByOrFail({ id: created.id });
      expect(secrets.signingSecretsOf(during, new Date())).toEqual([second.secret, first.secret]);

      const third = (await as('wendy').post(`${SUBSCRIPTIONS}/${created.id}/rotate-secret`).send({ overlapSeconds: 0 }).expect(200)).body;
      expect(third).toMatchObject({ previousSecretFingerprint: null, previousSecretExpiresAt: null, revision: 4 });
      const after = await sql.getRepository(WebhookSubscriptionEntity).findOneByOrFail({ id: created.id });
      expect(secrets.signingSecretsOf(after, new Date())).toEqual([third.secret]);
      expect(await rowOf(created.id)).toMatchObject({ previous_secret_ciphertext: null, previous_secret_key_version: null });
    });
  });

  describe('validation: 400 Validation.Failed per field, nothing written', () => {
    let existing: WebhookSubscriptionWithSecret;
    beforeAll(async () => {
      existing = await create();
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a relative callback URL', { callbackUrl: '/in' }, 'callbackUrl'],
      ['an ftp callback URL', { callbackUrl: 'ftp://example.com/in' }, 'callbackUrl'],
      ['credentials in the callback URL', { callbackUrl: 'https://u:p@example.com/in' }, 'callbackUrl'],
      ['a fragment in the callback URL', { callbackUrl: 'https://example.com/in#x' }, 'callbackUrl'],
      ['a callback URL over 2048 characters', { callbackUrl: `https://example.com/${'a'.repeat(2040)}` }, 'callbackUrl'],
      ['no event types', { eventTypes: [] }, 'eventTypes'],
      ['51 event types', { eventTypes: Array.from({ length: 51 }, (_, i) => `ticket.e${i}`) }, 'eventTypes'],
      ['an unknown module', { eventTypes: ['ticket.*', 'payroll.*'] }, 'eventTypes[1]'],
      ['a duplicate event type', { eventTypes: ['ticket.*', 'ticket.*'] }, 'eventTypes[1]'],
      ['maxRetries 26', { maxRetries: 26 }, 'maxRetries'],
      ['maxRetries 1.5', { maxRetries: 1.5 }, 'maxRetries'],
      ['a description of 501 characters', { description: 'x'.repeat(501) }, 'description'],
      ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
    ])('refuses %s on create and on update', async (_what, change, field) => {
      const before = await written();
      const created = await as('wendy').post(SUBSCRIPTIONS).send(body(change));
      expectProblem(created, 400, 'Validation.Failed');
      expect(Object.keys(created.body.errors)).toEqual([field]);
      const updated = await as('wendy').patch(`${SUBSCRIPTIONS}/${existing.id}`).send(change);
      expectProblem(updated, 400, 'Validation.Failed');
      expect(Object.keys(updated.body.errors)).toEqual([field]);
      expect(await written()).toEqual(before);
    });

    it('names the pattern problem of each event type and each missing field', async () => {
      const res = await as('wendy')
        .post(SUBSCRIPTIONS)
        .send({ eventTypes: ['ticket.*.x', 'nope'] });
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors).toEqual({
        callbackUrl: [expect.any(String)],
        'eventTypes[0]': ['a wildcard stands alone as the first segment (`*.created`) or the last (`ticket.*`)'],
        'eventTypes[1]': ['an event type is lower-case segments separated by dots, e.g. `ticket.created`'],
      });
    });

    it('refuses an empty update and a bad rotation overlap', async () => {
      const before = await written();
      expectProblem(await as('wendy').patch(`${SUBSCRIPTIONS}/${existing.id}`).send({}), 400, 'Validation.Failed');
      for (const overlapSeconds of [-1, 2_592_001, 1.5, '60']) {
        expectProblem(await as('wendy').post(`${SUBSCRIPTIONS}/${existing.id}/rotate-secret`).send({ overlapSeconds }), 400, 'Validation.Failed');
      }
      expect(await written()).toEqual(before);
    });
  });

  describe('GET /api/webhooks/event-types', () => {
    it('lists every family a subscription may name, and a subscription takes each family pattern and each known type', async () => {
      const { body: list } = await as('vera').get('/api/webhooks/event-types').expect(200);
      expect(list.items.map((f: { module: string }) => f.module)).toEqual(['ticket', 'chat', 'file', 'billing', 'notification', 'catalog', 'case', 'workflow']);
      expect(list.items[0]).toEqual({ module: 'ticket', pattern: 'ticket.*', source: 'Tickets', knownEventTypes: [] });
      expect(list.items.find((f: { module: string }) => f.module === 'case')).toMatchObject({ source: 'Case management', knownEventTypes: ['case.created'] });
      expect(list.patternForms).toEqual(['{module}.*', '{module}.{name}', '*.{name}']);
      const known = list.items.flatMap((f: { knownEventTypes: string[] }) => f.knownEventTypes);
      expect(known).toEqual(expect.arrayContaining(['workflow.instance.completed', 'workflow.task.created']));
      await create({ eventTypes: list.items.map((f: { pattern: string }) => f.pattern) });
      await create({ eventTypes: known.slice(0, 50) });
      // The same list for every tenant: it is the platform's.
      expect((await as('bob', TENANT_B).get('/api/webhooks/event-types').expect(200)).body).toEqual(list);
      expectProblem(await as('no-view').get('/api/webhooks/event-types'), 403, 'Authorization.Denied');
      expectProblem(await as('nobody').get('/api/webhooks/event-types'), 403, 'Authorization.Denied');
    });
  });

  describe('limit per tenant', () => {
    it('refuses the 101st live subscription with 409 Webhook.Subscription.LimitReached, and takes one again after a delete', async () => {
      const tenant = 'wh-limit';
      await platform.grantRole(tenant, 'lim', 'webhook-admin', ALL);
      const template = await create({}, 'lim', tenant);
      await sql.query(
        `INSERT INTO webhooks.subscription (id, tenant_id, callback_url, event_types, secret_ciphertext, secret_key_version, secret_fingerprint, created_by, updated_by)
         SELECT gen_random_uuid(), tenant_id, callback_url, event_types, secret_ciphertext, secret_key_version, secret_fingerprint, created_by, updated_by
           FROM webhooks.subscription, generate_series(1, 99) WHERE id = $1`,
        [template.id],
      );
      const before = await written();
      expectProblem(await as('lim', tenant).post(SUBSCRIPTIONS).send(body()), 409, 'Webhook.Subscription.LimitReached');
      expect(await written()).toEqual(before);
      await as('lim', tenant).delete(`${SUBSCRIPTIONS}/${template.id}`).expect(204);
      await create({}, 'lim', tenant);
    });
  });

  describe('tenant isolation', () => {
    it('tenant B can neither see nor change tenant A’s subscription', async () => {
      const mine = await create();
      const pending = await pendingDelivery(mine.id);
      const before = await rowOf(mine.id);
      expectProblem(await as('bob', TENANT_B).get(`${SUBSCRIPTIONS}/${mine.id}`), 404, 'NotFound');
      expectProblem(await as('bob', TENANT_B).patch(`${SUBSCRIPTIONS}/${mine.id}`).send({ isActive: false }), 404, 'NotFound');
      expectProblem(await as('bob', TENANT_B).post(`${SUBSCRIPTIONS}/${mine.id}/rotate-secret`).send({}), 404, 'NotFound');
      expectProblem(await as('bob', TENANT_B).delete(`${SUBSCRIPTIONS}/${mine.id}`), 404, 'NotFound');
      expect(await rowOf(mine.id)).toEqual(before);
      expect((await deliveryOf(pending)).status).toBe('pending');
    });
  });

  describe('denial: each route needs its own permission', () => {
    it('answers 403 Authorization.Denied without the route’s permission, writing nothing', async () => {
      const existing = await create();
      const before = await written();
      const id = existing.id;
      expectProblem(await as('no-create').post(SUBSCRIPTIONS).send(body()), 403, 'Authorization.Denied');
      expectProblem(await as('no-view').get(SUBSCRIPTIONS), 403, 'Authorization.Denied');
      expectProblem(await as('no-view').get(`${SUBSCRIPTIONS}/${id}`), 403, 'Authorization.Denied');
      expectProblem(await as('no-update').patch(`${SUBSCRIPTIONS}/${id}`).send({ isActive: false }), 403, 'Authorization.Denied');
      expectProblem(await as('no-delete').delete(`${SUBSCRIPTIONS}/${id}`), 403, 'Authorization.Denied');
      expectProblem(await as('no-manage').post(`${SUBSCRIPTIONS}/${id}/rotate-secret`).send({}), 403, 'Authorization.Denied');
      expectProblem(await as('vera').post(SUBSCRIPTIONS).send(body()), 403, 'Authorization.Denied');
      expectProblem(await as('nobody').get(SUBSCRIPTIONS), 403, 'Authorization.Denied');
      expect((await call(WebhooksRpc.listSubscriptions, 'no-view', {})).problem).toMatchObject({ status: 403, code: 'Authorization.Denied' });
      expect(await written()).toEqual(before);
    });
  });
});

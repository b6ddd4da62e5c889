import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ServiceJobs } from '@lp/platform/jobs';
import { EventBus } from '@lp/platform/messaging';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { ServiceApp } from '@lp/platform/runtime';
import { DeliveryScheduler, WebhookClock, WebhookDispatcherJobs } from '@lp/service/webhook-dispatcher';
import { verifyPlainSignature, verifyStandardWebhook, WebhookReceiver } from '@lp/service/webhook-dispatcher/testing';
import { expectProblem } from '../support/policy-platform';
import { WebhooksTestPlatform } from '../support/webhooks-platform';

interface DeliveryRow {
  id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
}

/** The dispatcher's clock, held still and moved by the test: retry delays are checked exactly, without waiting for them. */
function controlClock(dispatcher: ServiceApp) {
  let now = Date.now();
  jest.spyOn(dispatcher.app.get(WebhookClock), 'now').mockImplementation(() => new Date(now));
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      dispatcher.app.get(DeliveryScheduler).nudge();
    },
  };
}

/**
 * Deliveries end to end on PostgreSQL, RabbitMQ and Redis (docs/deliveries.md): events from the
 * broker and the ingest route, signed requests verified by a real receiver with the
 * `standardwebhooks` package and a plain HMAC, the retry schedule on a controlled clock, 410,
 * Retry-After, dead letters and replay, a restart between attempts, isolation of a slow receiver,
 * tenant isolation and the denial of every route.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'webhook-dispatcher: deliveries', () => {
  const platform = new WebhooksTestPlatform('webhook-deliveries', { env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } });
  const receivers: WebhookReceiver[] = [];
  /** The running dispatcher's database (the first one is stopped by the restart test). */
  const sql = () => platform.dispatcher.app.get(DataSource);

  const receiver = async () => {
    const started = await new WebhookReceiver().start();
    receivers.push(started);
    return started;
  };
  const subscribe = async (callbackUrl: string, eventTypes: string[], extra: Record<string, unknown> = {}, tenantId = 'default', sub = 'admin') => {
    const res = await platform
      .hooks(sub, tenantId)
      .post('/api/webhooks/subscriptions')
      .send({ callbackUrl, eventTypes, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const ingest = (eventType: string, payload: object, eventId?: string, tenantId = 'default') =>
    platform
      .hooks('admin', tenantId)
      .post('/api/webhooks/events')
      .send({ eventType, payload, ...(eventId ? { eventId } : {}) });
  const deliveryOf = async (subscriptionId: string, eventId: string): Promise<DeliveryRow | undefined> =>
    (
      await sql().query(
        `SELECT "id", "status", "attempt_count", "next_attempt_at" FROM "webhooks"."delivery" WHERE "subscription_id" = $1 AND "event_id" = $2`,
        [subscriptionId, eventId],
      )
    )[0];
  const settledAfter = (subscriptionId: string, eventId: string, attempts: number) =>
    eventually(
      () => deliveryOf(subscriptionId, eventId),
      (row) => row !== undefined && row.attempt_count >= attempts,
      15_000,
    );
  const log = async (subscriptionId: string) => (await platform.hooks().get(`/api/webhooks/subscriptions/${subscriptionId}/deliveries`).expect(200)).body;

  beforeAll(async () => {
    await platform.start();
    await platform.grantRole('default', 'nobody', 'webhook-nothing', ['cases.case.view']);
    await platform.seedTenantAdmin('acme', 'ada');
  }, 120_000);
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    for (const r of receivers) await r.stop();
    await platform.stop();
  });

  it('delivers an event from the broker, signed so that standardwebhooks and a plain HMAC both verify it', async () => {
    const hook = await receiver();
    const { id, secret } = await subscribe(hook.url('/cases'), ['case.*']);
    const eventId = randomUUID();
    await platform.dispatcher.app.get(EventBus).publish({
      eventId,
      eventType: 'case.created',
      version: 1,
      tenantId: 'default',
      occurredAt: new Date().toISOString(),
      correlationId: null,
      payload: { caseId: 'c-1', title: 'Acme v. Globex' },
    });
    const [request] = await hook.waitForRequests(1, { timeoutMs: 15_000 });
    expect(request!.method).toBe('POST');
    expect(JSON.parse(request!.body)).toEqual({ eventId, eventType: 'case.created', payload: { caseId: 'c-1', title: 'Acme v. Globex' } });
    expect(request!.headers['x-webhook-event']).toBe('case.created');
    expect(request!.headers['x-webhook-subscription-id']).toBe(id);
    expect(request!.headers['x-webhook-delivery-id']).toBe(request!.headers['webhook-id']);
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    expect(verifyStandardWebhook(request!, secret)).toEqual(JSON.parse(request!.body));
    expect(verifyPlainSignature(request!, secret)).toBe(true);
    expect(verifyPlainSignature(request!, `${secret.slice(0, -2)}AA`)).toBe(false);

    const settled = await settledAfter(id, eventId, 1);
    expect(settled).toMatchObject({ status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    const page = await log(id);
    expect(page.items).toEqual([
      expect.objectContaining({ deliveryId: settled!.id, eventId, eventType: 'case.created', attemptNumber: 1, outcome: 'succeeded', httpStatusCode: 204 }),
    ]);
    expect(JSON.stringify(page)).not.toContain(secret);
  });

  it('fans an ingested event out to matching subscriptions only, once per event id, never across tenants', async () => {
    const hook = await receiver();
    const all = await subscribe(hook.url('/all'), ['billing.*']);
    const exact = await subscribe(hook.url('/exact'), ['billing.invoice.paid']);
    const suffix = await subscribe(hook.url('/suffix'), ['*.paid']);
    const other = await subscribe(hook.url('/other'), ['billing.invoice.voided']);
    const foreign = await subscribe(hook.url('/acme'), ['billing.*'], {}, 'acme', 'ada');

    const first = await ingest('billing.invoice.paid', { invoiceId: 'INV-1' }, 'inv-1-paid').expect(202);
    expect(first.body).toEqual({ eventId: 'inv-1-paid', eventType: 'billing.invoice.paid', matchedSubscriptions: 3, deliveriesCreated: 3 });
    const again = await ingest('billing.invoice.paid', { invoiceId: 'INV-1' }, 'inv-1-paid').expect(202);
    expect(again.body).toMatchObject({ matchedSubscriptions: 3, deliveriesCreated: 0 });

    const requests = await hook.waitForRequests(3, { timeoutMs: 15_000 });
    expect(requests.map((r) => r.path).sort()).toEqual(['/all', '/exact', '/suffix']);
    for (const s of [all, exact, suffix]) expect(await settledAfter(s.id, 'inv-1-paid', 1)).toMatchObject({ status: 'succeeded' });
    expect(await deliveryOf(other.id, 'inv-1-paid')).toBeUndefined();
    expect(await deliveryOf(foreign.id, 'inv-1-paid')).toBeUndefined();
    // tenant acme sees none of default's subscriptions' logs
    await platform.hooks('ada', 'acme').get(`/api/webhooks/subscriptions/${all.id}/deliveries`).expect(404);
    expect(hook.requests.filter((r) => r.path === '/acme')).toHaveLength(0);
  });

  it('refuses an ingested event of an unknown module or with a payload that is not an object', async () => {
    expectProblem(await ingest('payroll.paid', {}), 400, 'Validation.Failed');
    const res = await platform.hooks().post('/api/webhooks/events').send({ eventType: 'ticket.created', payload: 'text' });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors).toHaveProperty('payload');
  });

  it('retries a flaky receiver on the spec schedule (5 s, then 10 s, less jitter) until it answers 200', async () => {
    const clock = controlClock(platform.dispatcher);
    const hook = (await receiver()).respondWith({ status: 500, body: 'boom' }, { status: 503 }).respondAlways({ status: 200, body: 'ok' });
    const { id, secret } = await subscribe(hook.url('/flaky'), ['ticket.*']);
    await ingest('ticket.created', { ticketId: 'T-1' }, 'flaky-1').expect(202);

    const first = await settledAfter(id, 'flaky-1', 1);
    expect(first).toMatchObject({ status: 'pending', attempt_count: 1 });
    // Listed as people name it: attempted, failed, due again.
    const retrying = (await platform.hooks().get(`/api/webhooks/deliveries?subscriptionId=${id}`).expect(200)).body;
    expect(retrying.items).toEqual([
      expect.objectContaining({
        id: first!.id,
        status: 'retrying',
        attempts: 1,
        attemptLog: [expect.objectContaining({ attemptNumber: 1, httpStatusCode: 500 })],
      }),
    ]);
    const firstWait = first!.next_attempt_at!.getTime() - clock.now();
    expect(firstWait).toBeGreaterThanOrEqual(4_000);
    expect(firstWait).toBeLessThanOrEqual(5_000);
    // Not due yet: nothing happens however often the scheduler looks.
    await platform.dispatcher.app.get(DeliveryScheduler).runDue();
    expect((await deliveryOf(id, 'flaky-1'))!.attempt_count).toBe(1);

    clock.advance(firstWait);
    const second = await settledAfter(id, 'flaky-1', 2);
    expect(second).toMatchObject({ status: 'pending', attempt_count: 2 });
    const secondWait = second!.next_attempt_at!.getTime() - clock.now();
    expect(secondWait).toBeGreaterThanOrEqual(8_000);
    expect(secondWait).toBeLessThanOrEqual(10_000);

    clock.advance(secondWait);
    expect(await settledAfter(id, 'flaky-1', 3)).toMatchObject({ status: 'succeeded', attempt_count: 3, next_attempt_at: null });
    const requests = hook.requests.filter((r) => r.path === '/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-webhook-delivery-id'])).size).toBe(1);
    for (const request of requests) expect(verifyPlainSignature(request, secret)).toBe(true);
    const page = await log(id);
    expect(
      page.items.map((a: { attemptNumber: number; httpStatusCode: number; responseBody: string | null; outcome: string }) => [
        a.attemptNumber,
        a.httpStatusCode,
        a.responseBody,
        a.outcome,
      ]),
    ).toEqual([
      [3, 200, 'ok', 'succeeded'],
      [2, 503, null, 'failed'],
      [1, 500, 'boom', 'failed'],
    ]);
    expect(page.items[0].latencyMs).toEqual(expect.any(Number));
    const delivered = (await platform.hooks().get(`/api/webhooks/deliveries/${first!.id}`).expect(200)).body;
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(delivered.attemptLog.map((a: { attemptNumber: number; outcome: string }) => [a.attemptNumber, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'succeeded'],
    ]);
  });

  it('dead-letters a delivery after 1 + MaxRetries attempts, and replays it with the same delivery id once', async () => {
    const clock = controlClock(platform.dispatcher);
    const hook = (await receiver()).respondAlways({ status: 500 });
    const { id } = await subscribe(hook.url('/down'), ['chat.*'], { maxRetries: 2 });
    await ingest('chat.message.posted', { messageId: 'M-1' }, 'dead-1').expect(202);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const row = await settledAfter(id, 'dead-1', attempt);
      if (attempt < 3) clock.advance(row!.next_attempt_at!.getTime() - clock.now());
    }
    const dead = await deliveryOf(id, 'dead-1');
    expect(dead).toMatchObject({ status: 'dead', attempt_count: 3, next_attempt_at: null });

    const listedDead = (await platform.hooks().get(`/api/webhooks/deliveries?subscriptionId=${id}&status=dead`).expect(200)).body;
    expect(listedDead.items.map((d: { id: string; attemptLog: unknown[] }) => [d.id, d.attemptLog.length])).toEqual([[dead!.id, 3]]);
    const letters = (await platform.hooks().get(`/api/webhooks/dead-letters?subscriptionId=${id}`).expect(200)).body;
    expect(letters).toMatchObject({ totalCount: 1 });
    const [letter] = letters.items;
    expect(letter).toMatchObject({ deliveryId: dead!.id, reason: 'RetriesExhausted', attempts: 3, lastStatusCode: 500, replayedAt: null });

    hook.respondAlways({ status: 200 });
    const replayed = await platform.hooks().post(`/api/webhooks/dead-letters/${letter.id}/replay`).expect(202);
    expect(replayed.body).toMatchObject({ id: letter.id, replayedBy: 'admin', replayedAt: expect.any(String) });
    expect(await settledAfter(id, 'dead-1', 4)).toMatchObject({ status: 'succeeded', attempt_count: 4 });
    const requests = hook.requests.filter((r) => r.path === '/down');
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([dead!.id]));
    expectProblem(await platform.hooks().post(`/api/webhooks/dead-letters/${letter.id}/replay`), 409, 'Webhook.DeadLetter.AlreadyReplayed');
    expect((await platform.hooks().get(`/api/webhooks/dead-letters?subscriptionId=${id}&replayed=false`).expect(200)).body.totalCount).toBe(0);
  });

  it('410 Gone deactivates the subscription at once; 429 with Retry-After waits what the receiver asked', async () => {
    const clock = controlClock(platform.dispatcher);
    const gone = (await receiver()).respondAlways({ status: 410 });
    const goneSub = await subscribe(gone.url('/gone'), ['file.*']);
    const busy = (await receiver()).respondWith({ status: 429, headers: { 'Retry-After': '120' } });
    const busySub = await subscribe(busy.url('/busy'), ['file.*']);
    await ingest('file.uploaded', { fileId: 'F-1' }, 'file-1').expect(202);

    expect(await settledAfter(goneSub.id, 'file-1', 1)).toMatchObject({ status: 'dead', attempt_count: 1 });
    const subscription = (await platform.hooks().get(`/api/webhooks/subscriptions/${goneSub.id}`).expect(200)).body;
    expect(subscription).toMatchObject({ isActive: false, deactivatedReason: 'gone' });
    const letters = (await platform.hooks().get(`/api/webhooks/dead-letters?subscriptionId=${goneSub.id}`).expect(200)).body;
    expect(letters.items).toEqual([expect.objectContaining({ reason: 'SubscriptionGone', lastStatusCode: 410 })]);
    // A deactivated subscription receives no new deliveries.
    await ingest('file.uploaded', { fileId: 'F-2' }, 'file-2').expect(202);
    expect(await deliveryOf(goneSub.id, 'file-2')).toBeUndefined();

    const waiting = await settledAfter(busySub.id, 'file-1', 1);
    expect(waiting).toMatchObject({ status: 'pending' });
    expect(waiting!.next_attempt_at!.getTime() - clock.now()).toBe(120_000);
  });

  it('survives a dispatcher restart between two attempts: the delivery completes exactly once', async () => {
    const hook = (await receiver()).respondWith({ status: 502 }).respondAlways({ status: 200 });
    const { id } = await subscribe(hook.url('/restart'), ['notification.*']);
    const clock = controlClock(platform.dispatcher);
    await ingest('notification.sent', { to: 'x' }, 'restart-1').expect(202);
    const first = await settledAfter(id, 'restart-1', 1);
    expect(first).toMatchObject({ status: 'pending', attempt_count: 1 });

    await platform.stopDispatcher(platform.dispatcher);
    const restarted = await platform.startDispatcher();
    const later = first!.next_attempt_at!.getTime() + 1;
    jest.spyOn(restarted.app.get(WebhookClock), 'now').mockImplementation(() => new Date(Math.max(later, clock.now())));
    restarted.app.get(DeliveryScheduler).nudge();

    expect(await settledAfter(id, 'restart-1', 2)).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    await restarted.app.get(DeliveryScheduler).runDue();
    expect(hook.requests.filter((r) => r.path === '/restart')).toHaveLength(2);
    expect((await log(id)).totalCount).toBe(2);
  });

  it('one receiver answering after 5 s does not hold up another subscription’s deliveries', async () => {
    const slow = (await receiver()).respondAlways({ status: 200, delayMs: 5_000 });
    const fast = await receiver();
    const slowSub = await subscribe(slow.url('/slow'), ['catalog.item.added']);
    const fastSub = await subscribe(fast.url('/fast'), ['catalog.item.changed']);
    const events = Array.from({ length: 8 }, (_, i) => `iso-${i}`);
    // The slow subscription's deliveries first, so they are claimed first.
    for (const eventId of events) await ingest('catalog.item.added', { i: eventId }, `${eventId}-slow`).expect(202);
    for (const eventId of events) await ingest('catalog.item.changed', { i: eventId }, `${eventId}-fast`).expect(202);

    await fast.waitForRequests(8, { timeoutMs: 4_000 });
    const answeredSlow = await sql().query(`SELECT count(*)::int AS n FROM "webhooks"."delivery" WHERE "subscription_id" = $1 AND "status" = 'succeeded'`, [
      slowSub.id,
    ]);
    expect(answeredSlow[0].n).toBe(0); // the slow receiver has not answered once yet
    expect(slow.requests.length).toBeLessThanOrEqual(4); // it holds its share of slots, no more
    for (const eventId of events) expect(await settledAfter(fastSub.id, `${eventId}-fast`, 1)).toMatchObject({ status: 'succeeded' });
    // The slow receiver gets all of its own, four at a time.
    await slow.waitForRequests(8, { timeoutMs: 30_000 });
    for (const eventId of events) expect(await settledAfter(slowSub.id, `${eventId}-slow`, 1)).toMatchObject({ status: 'succeeded' });
  }, 60_000);

  it('answers a ping with the one attempt’s result and logs it', async () => {
    const hook = (await receiver()).respondWith({ status: 418, body: 'teapot' });
    const { id, secret } = await subscribe(hook.url('/ping'), ['ticket.*']);
    const failed = await platform.hooks().post(`/api/webhooks/subscriptions/${id}/ping`).expect(200);
    expect(failed.body).toMatchObject({ eventType: 'webhook.ping', succeeded: false, httpStatusCode: 418, errorCode: null });
    const ok = await platform.hooks().post(`/api/webhooks/subscriptions/${id}/ping`).expect(200);
    expect(ok.body).toMatchObject({ succeeded: true, httpStatusCode: 204 });
    const [request] = hook.requests;
    expect(verifyStandardWebhook(request!, secret)).toMatchObject({ eventType: 'webhook.ping', payload: { subscriptionId: id, message: 'ping' } });
    expect((await log(id)).items).toHaveLength(2);
    const delivery = (await platform.hooks().get(`/api/webhooks/deliveries/${failed.body.deliveryId}`).expect(200)).body;
    expect(delivery).toMatchObject({
      kind: 'ping',
      status: 'dead',
      attempts: 1,
      attemptLog: [expect.objectContaining({ httpStatusCode: 418, responseBody: 'teapot' })],
    });
    expect((await platform.hooks().get(`/api/webhooks/deliveries/${ok.body.deliveryId}`).expect(200)).body).toMatchObject({ status: 'delivered' });
    expect((await platform.hooks().get(`/api/webhooks/dead-letters?subscriptionId=${id}`).expect(200)).body.totalCount).toBe(0);
    await platform.hooks('ada', 'acme').post(`/api/webhooks/subscriptions/${id}/ping`).expect(404);
  });

  it('lists the tenant’s deliveries newest first with their status and attempts nested, filtered, never another tenant’s', async () => {
    const hook = await receiver();
    const { id } = await subscribe(hook.url('/listed'), ['catalog.*']);
    await ingest('catalog.item.added', { itemId: 'I-1' }, 'listed-1').expect(202);
    const delivered = await eventually(
      () => deliveryOf(id, 'listed-1'),
      (row) => row?.status === 'succeeded',
      15_000,
    );
    // A delivery not attempted yet (due tomorrow).
    const waiting = randomUUID();
    await sql().query(
      `INSERT INTO "webhooks"."delivery" ("id", "tenant_id", "subscription_id", "event_id", "event_type", "payload", "occurred_at", "next_attempt_at")
       VALUES ($1, 'default', $2, 'listed-2', 'catalog.item.removed', '{}', now(), now() + interval '1 day')`,
      [waiting, id],
    );
    const list = async (query: string, as = platform.hooks()) => (await as.get(`/api/webhooks/deliveries?${query}`).expect(200)).body;
    const both = await list(`subscriptionId=${id}`);
    expect(both).toMatchObject({ totalCount: 2, pageIndex: 0, pageSize: 20 });
    expect(both.items).toEqual([
      expect.objectContaining({ id: waiting, status: 'pending', attempts: 0, attemptLog: [], eventType: 'catalog.item.removed' }),
      expect.objectContaining({
        id: delivered!.id,
        status: 'delivered',
        attempts: 1,
        attemptLog: [expect.objectContaining({ deliveryId: delivered!.id, attemptNumber: 1, outcome: 'succeeded', httpStatusCode: 204 })],
      }),
    ]);
    expect((await list(`subscriptionId=${id}&status=pending`)).items.map((d: { id: string }) => d.id)).toEqual([waiting]);
    expect((await list(`subscriptionId=${id}&status=delivered&eventType=catalog.item.added`)).items.map((d: { id: string }) => d.id)).toEqual([delivered!.id]);
    expect((await list(`subscriptionId=${id}&status=retrying`)).totalCount).toBe(0);
    expect((await list(`subscriptionId=${id}&pageSize=1&pageIndex=1`)).items.map((d: { id: string }) => d.id)).toEqual([delivered!.id]);
    // Another tenant sees none of them, by filter or by id.
    const acme = platform.hooks('ada', 'acme');
    expect((await list(`subscriptionId=${id}`, acme)).totalCount).toBe(0);
    expect((await list('eventType=catalog.item.added', acme)).totalCount).toBe(0);
    expectProblem(await acme.get(`/api/webhooks/deliveries/${delivered!.id}`), 404, 'NotFound');
    for (const [query, field] of [
      ['status=succeeded', 'status'],
      ['subscriptionId=not-a-uuid', 'subscriptionId'],
      [`eventType=${'e'.repeat(201)}`, 'eventType'],
      ['pageSize=0', 'pageSize'],
    ]) {
      const res = await platform.hooks().get(`/api/webhooks/deliveries?${query}`);
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it('purges finished deliveries with their attempts and dead letters past the retention, never a pending one', async () => {
    const clock = controlClock(platform.dispatcher);
    const done = await subscribe((await receiver()).url('/retention-done'), ['ticket.closed']);
    const dead = await subscribe((await receiver()).respondAlways({ status: 500 }).url('/retention-dead'), ['ticket.merged'], { maxRetries: 0 });
    const waiting = await subscribe((await receiver()).respondAlways({ status: 503, headers: { 'Retry-After': '86400' } }).url('/retention-wait'), [
      'ticket.reopened',
    ]);
    await ingest('ticket.closed', { ticketId: 'R-1' }, 'retention-1').expect(202);
    await ingest('ticket.merged', { ticketId: 'R-2' }, 'retention-2').expect(202);
    await ingest('ticket.reopened', { ticketId: 'R-3' }, 'retention-3').expect(202);
    expect(await settledAfter(done.id, 'retention-1', 1)).toMatchObject({ status: 'succeeded' });
    expect(await settledAfter(dead.id, 'retention-2', 1)).toMatchObject({ status: 'dead' });
    expect(await settledAfter(waiting.id, 'retention-3', 1)).toMatchObject({ status: 'pending' });
    const count = async (table: string, subscriptionId: string) =>
      Number((await sql().query(`SELECT count(*)::int AS n FROM "webhooks"."${table}" WHERE "subscription_id" = $1`, [subscriptionId]))[0].n);
    const rows = async (subscriptionId: string) => [
      await count('delivery', subscriptionId),
      await count('delivery_attempt', subscriptionId),
      await count('dead_letter', subscriptionId),
    ];
    expect([await rows(done.id), await rows(dead.id)]).toEqual([
      [1, 1, 0],
      [1, 1, 1],
    ]);

    // 31 days later (the default retention is 30): the finished ones go with their log and dead letter.
    const now = new Date(clock.now() + 31 * 86_400_000);
    const job = WebhookDispatcherJobs.deliveryRetention.jobName;
    const run = await platform.dispatcher.app.get(ServiceJobs).run({ jobName: job, trigger: 'manual', executionId: randomUUID(), scheduledFor: now, now });
    expect(run).toMatchObject({ status: 'succeeded' });
    expect([await rows(done.id), await rows(dead.id)]).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    // The pending delivery stays (its old attempt goes: the log is kept for the retention only).
    expect(await deliveryOf(waiting.id, 'retention-3')).toMatchObject({ status: 'pending' });
    expect(await count('delivery_attempt', waiting.id)).toBe(0);
  });

  it('denies every delivery route to a caller without its permission', async () => {
    const unknown = randomUUID();
    const calls = [
      () => platform.hooks('nobody').post('/api/webhooks/events').send({ eventType: 'ticket.created', payload: {} }),
      () => platform.hooks('nobody').get(`/api/webhooks/subscriptions/${unknown}/deliveries`),
      () => platform.hooks('nobody').get(`/api/webhooks/deliveries/${unknown}`),
      () => platform.hooks('nobody').get('/api/webhooks/deliveries'),
      () => platform.hooks('nobody').post(`/api/webhooks/subscriptions/${unknown}/ping`),
      () => platform.hooks('nobody').get('/api/webhooks/dead-letters'),
      () => platform.hooks('nobody').get(`/api/webhooks/dead-letters/${unknown}`),
      () => platform.hooks('nobody').post(`/api/webhooks/dead-letters/${unknown}/replay`),
    ];
    for (const call of calls) expectProblem(await call(), 403, 'Authorization.Denied');
  });
});

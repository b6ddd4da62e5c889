import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { describeWithServers, eventually, TcpOutageProxy, testServerUrls } from '@lp/platform/testing';
import { fleetServices } from '@lp/fleet';
import { WebhookReceiver } from '@lp/service/webhook-dispatcher/testing';
import { Answer, call, FleetProcesses } from '../support/fleet-processes';

type Server = 'postgres' | 'rabbitmq' | 'redis';

/** A proxy in front of the shared server: the fleet reaches that server only through it. */
function proxyFor(server: Server): TcpOutageProxy {
  const url = new URL(testServerUrls[server]);
  const port = Number(url.port || { postgres: 5432, rabbitmq: 5672, redis: 6379 }[server]);
  return new TcpOutageProxy({ host: url.hostname, port });
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
const services = fleetServices.map((s) => s.name);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Faults under load on the fleet as deployed (one process per service): every service reaches
 * PostgreSQL, RabbitMQ and Redis through a `TcpOutageProxy` of this spec, which cuts and restores
 * that path; the shared servers themselves are never touched. One fleet serves the four faults in
 * turn (each one ends with the fleet recovered, which the next one relies on).
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'the fleet under faults', () => {
  const proxies = { postgres: proxyFor('postgres'), rabbitmq: proxyFor('rabbitmq'), redis: proxyFor('redis') };
  let fleet: FleetProcesses;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    for (const proxy of Object.values(proxies)) await proxy.start();
    await receiver.start();
    fleet = new FleetProcesses('fleet-faults', {
      through: { postgres: proxies.postgres.url, rabbitmq: proxies.rabbitmq.url, redis: proxies.redis.url },
      // A killed attempt's lease is the two together: the in-flight kill below waits about 7 s, not 32.
      serviceEnv: { 'webhook-dispatcher': { WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MARGIN_MS: '5000' } },
    });
    await fleet.start();
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
    await receiver.stop();
    for (const proxy of Object.values(proxies)) await proxy.stop();
  }, 60_000);

  const ready = (service: string) => call(`${fleet.url(service)}/health/ready`, {}, 3_000);
  /** Polls every service's readiness until each answers 200; returns ms from `since` to each one's first 200. */
  const reconnectTimes = async (since: number, boundMs: number): Promise<Record<string, number | null>> => {
    const times: Record<string, number | null> = {};
    await Promise.all(
      services.map(async (service) => {
        const answer = await eventually(
          () => ready(service),
          (r) => r.status === 200,
          boundMs,
          100,
        );
        times[service] = answer.status === 200 ? Date.now() - since : null;
      }),
    );
    return times;
  };
  const createCase = (i: number, timeoutMs?: number) =>
    call(
      `${fleet.url('case-management')}/api/cases`,
      {
        method: 'POST',
        headers: fleet.auth(),
        body: { title: `Fault load ${i}`, caseType: 'civil', claimAmount: 1000 + i, defendantName: 'Globex' },
      },
      timeoutMs,
    );

  it('RabbitMQ cut for 10 s under case creations: fails closed, every service reconnects, the events of writes committed during the outage are delivered, none lost', async () => {
    const subscription = await call(`${fleet.url('webhook-dispatcher')}/api/webhooks/subscriptions`, {
      method: 'POST',
      headers: fleet.auth(),
      body: { callbackUrl: receiver.url('/cases'), eventTypes: ['case.created'] },
    });
    expect(subscription.status).toBe(201);

    interface Sent {
      kind: 'create' | 'read';
      start: number;
      end: number;
      status: number;
      id?: string;
    }
    const sent: Sent[] = [];
    const created: string[] = [];
    let stop = false;
    let loadCreating = false;
    // Load: one create every 250 ms (4/s, at most 160), and after each create a read of a case
    // never read before (its id is a resource fact of the decision, so no cached decision fits it).
    const load = (async () => {
      let unread = 0;
      for (let i = 0; i < 160 && !stop; i++) {
        const tick = Date.now();
        const start = Date.now();
        loadCreating = true;
        const res = await createCase(i, 30_000);
        loadCreating = false;
        const id = res.status === 201 ? (res.body as { id: string }).id : undefined;
        if (id) created.push(id);
        sent.push({ kind: 'create', start, end: Date.now(), status: res.status, id });
        if (unread < created.length) {
          const readStart = Date.now();
          const read = await call(`${fleet.url('case-management')}/api/cases/${created[unread++]}`, { headers: fleet.auth() });
          sent.push({ kind: 'read', start: readStart, end: Date.now(), status: read.status });
        }
        await pause(Math.max(0, 250 - (Date.now() - tick))); // pacing of the load, not a wait for a condition
      }
    })();

    await eventually(
      async () => created.length,
      (n) => n >= 8,
      15_000,
      50,
    );
    // Writes in flight when the broker goes: three creates authorized before the cut are held on
    // the tenant's matter-sequence row (this transaction locks it) and commit during the outage,
    // so their outbox events are written while RabbitMQ is down.
    const holder = new Client({ connectionString: fleet.env.DATABASE_URL });
    // The teardown's DROP DATABASE WITH (FORCE) ends this connection if a failure left it open.
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM "cases"."matter_sequence" WHERE "tenant_id" = 'default' FOR UPDATE`);
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await holder.query('COMMIT');
      await holder.end();
    };
    const held = [0, 1, 2].map((i) => createCase(1000 + i, 30_000).then((res) => ({ res, end: Date.now() })));
    const waiting = async () => {
      const n = (
        await fleet.sql.query<{ n: number }>(
          // Waiters on a row queue behind the first one (its tuple lock), not all behind the holder.
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
          [holderPid],
        )
      ).rows[0]!.n;
      // The load's own create, when one is in flight, ends up waiting on the same row.
      return { n, expected: 3 + (loadCreating ? 1 : 0) };
    };
    const blocked = await eventually(waiting, (w) => w.n === w.expected, 15_000, 50);
    expect(blocked.n).toBe(blocked.expected);

    const cutAt = Date.now();
    await proxies.rabbitmq.stop();
    let unsentAtRestore = -1;
    let restoredAt = 0;
    let heldAnswers: Array<{ res: Answer; end: number }> = [];
    try {
      // Every service notices: readiness leaves 200 (the broker is a critical dependency).
      const down = await Promise.all(
        services.map((s) =>
          eventually(
            () => ready(s),
            (r) => r.status !== 200,
            10_000,
            100,
          ),
        ),
      );
      expect(down.map((r, i) => [services[i], r.status !== 200])).toEqual(services.map((s) => [s, true]));
      // Every service knows the broker is gone: now the held writes commit.
      await release();
      heldAnswers = await Promise.all(held);
      await pause(Math.max(0, cutAt + 10_000 - Date.now())); // the outage lasts 10 s
      unsentAtRestore = (await fleet.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "cases"."outbox_message" WHERE "sent_at" IS NULL`)).rows[0]!.n;
    } finally {
      await release();
      restoredAt = Date.now();
      await proxies.rabbitmq.start();
    }
    const writtenDuring = heldAnswers.filter((h) => h.res.status === 201 && h.end < restoredAt);
    for (const h of writtenDuring) created.push((h.res.body as { id: string }).id);
    const times = await reconnectTimes(restoredAt, 20_000);
    // Load keeps going a little after recovery, then stops.
    const createdBeforeRecovery = created.length;
    await eventually(
      async () => created.length,
      (n) => n >= createdBeforeRecovery + 8,
      20_000,
      50,
    );
    stop = true;
    await load;

    const during = sent.filter((s) => s.start >= cutAt && s.end <= restoredAt);
    const duringTally = tally(during.map((s) => s.status));
    const permitsDuring = during.filter((s) => s.status >= 200 && s.status < 300);
    console.log(
      `[faults] RabbitMQ cut ${restoredAt - cutAt} ms: load ${sent.filter((s) => s.kind === 'create').length} creates + ${sent.filter((s) => s.kind === 'read').length} fresh reads, ` +
        `${created.length} cases created; answers during the outage ${JSON.stringify(duringTally)} (2xx: ${permitsDuring.length}); ` +
        `outbox rows unsent at restore ${unsentAtRestore}; reconnect ms ${JSON.stringify(times)}; ` +
        `creates authorized before the cut and committed during it: ${writtenDuring.length} of ${heldAnswers.length} (${JSON.stringify(tally(heldAnswers.map((h) => h.res.status)))})`,
    );
    expect(writtenDuring).toHaveLength(3);
    expect(unsentAtRestore).toBeGreaterThanOrEqual(3);
    expect(during.length).toBeGreaterThan(0);
    expect(permitsDuring).toEqual([]);
    for (const s of during) expect([403, 503]).toContain(s.status);
    for (const service of services) expect({ service, ms: times[service] }).toEqual({ service, ms: expect.any(Number) });
    for (const service of services) expect(times[service]).toBeLessThanOrEqual(10_000);

    // Every case created (before, around and after the outage): its event reached both consumers.
    const owners = async () =>
      (
        await fleet.sql.query<{ n: number }>(
          `SELECT count(DISTINCT "resource_id")::int AS n FROM "authz"."resource_relation" WHERE "resource_type" = 'case' AND "relation" = 'owner' AND "resource_id" = ANY ($1)`,
          [created],
        )
      ).rows[0]!.n;
    const hooked = () =>
      new Set(receiver.requests.filter((r) => r.path === '/cases').map((r) => (JSON.parse(r.body) as { payload: { caseId: string } }).payload.caseId));
    const ownersFound = await eventually(owners, (n) => n === created.length, 30_000, 200);
    await eventually(
      async () => created.filter((id) => hooked().has(id)).length,
      (n) => n === created.length,
      30_000,
      200,
    );
    const delivered = created.filter((id) => hooked().has(id)).length;
    const unsent = (await fleet.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "cases"."outbox_message" WHERE "sent_at" IS NULL`)).rows[0]!.n;
    console.log(
      `[faults] RabbitMQ cut: ${created.length} case.created events; owner relations ${ownersFound}, webhook deliveries ${delivered}, ` +
        `lost ${created.length - Math.min(ownersFound, delivered)}; outbox rows still unsent ${unsent}`,
    );
    expect(ownersFound).toBe(created.length);
    expect(delivered).toBe(created.length);
    expect(unsent).toBe(0);
  }, 120_000);

  const decide = (resourceId: string, subject = 'admin', action = 'View') =>
    call(`${fleet.url('authz-decision')}/api/authorization/decisions`, {
      method: 'POST',
      headers: fleet.auth({ sub: subject }),
      body: { resource: { module: 'cases', resourceType: 'case', resourceId }, action },
    });

  it('PostgreSQL path cut for 5 s under decisions: every service reconnects, no decision audit record lost', async () => {
    const answered: string[] = [];
    const statuses: Array<{ at: number; status: number }> = [];
    let stop = false;
    // Load: 4 callers, each one question every 50 ms at most (at most 4 x 300): half of them fresh
    // (a new resource id), half the same question again (a decision cache hit).
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = 0; i < 300 && !stop; i++) {
          const tick = Date.now();
          const res = await decide(i % 2 === 0 ? `pg-${worker}-${i}` : 'pg-hot');
          statuses.push({ at: tick, status: res.status });
          if (res.status === 200) answered.push((res.body as { decisionId: string }).decisionId);
          await pause(Math.max(0, 50 - (Date.now() - tick))); // pacing of the load
        }
      }),
    );
    await eventually(
      async () => answered.length,
      (n) => n >= 40,
      15_000,
      50,
    );
    const cutAt = Date.now();
    await proxies.postgres.stop();
    let restoredAt = 0;
    let notReady: Answer | undefined;
    try {
      // The cut bites: authz-decision's readiness (database critical) leaves 200.
      notReady = await eventually(
        () => ready('authz-decision'),
        (r) => r.status !== 200,
        5_000,
        100,
      );
      await pause(Math.max(0, cutAt + 5_000 - Date.now())); // the outage lasts 5 s
    } finally {
      restoredAt = Date.now();
      await proxies.postgres.start();
    }
    const times = await reconnectTimes(restoredAt, 20_000);
    const answeredAtRecovery = answered.length;
    await eventually(
      async () => answered.length,
      (n) => n >= answeredAtRecovery + 40,
      20_000,
      50,
    );
    stop = true;
    await load;

    const rows = async () =>
      (await fleet.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "authz_audit"."decision_audit" WHERE "decision_id" = ANY ($1::uuid[])`, [answered]))
        .rows[0]!.n;
    const found = await eventually(rows, (n) => n >= answered.length, 30_000, 200);
    const during = tally(statuses.filter((s) => s.at >= cutAt && s.at < restoredAt).map((s) => s.status));
    console.log(
      `[faults] PostgreSQL cut ${restoredAt - cutAt} ms: ${statuses.length} decisions asked, ${answered.length} answered (during the outage ${JSON.stringify(during)}); ` +
        `audit rows ${found}, lost ${answered.length - found}; reconnect ms ${JSON.stringify(times)}`,
    );
    console.log(
      `[faults] PostgreSQL cut: authz-decision readiness during it ${notReady?.status} ${JSON.stringify((notReady?.body as { details?: unknown })?.details)}`,
    );
    expect(notReady?.status).toBe(503);
    for (const service of services) expect({ service, ms: times[service] }).toEqual({ service, ms: expect.any(Number) });
    for (const service of services) expect(times[service]).toBeLessThanOrEqual(10_000);
    expect(found).toBe(answered.length);
  }, 120_000);

  it('Redis cut: decisions stay what they were, readiness says the cache is degraded, and it recovers', async () => {
    const questions = [
      { subject: 'admin', action: 'View' },
      { subject: 'admin', action: 'Create' },
      { subject: 'nobody', action: 'View' },
      { subject: 'nobody', action: 'Delete' },
    ];
    const outcomes = async (round: string) =>
      Promise.all(
        questions.flatMap((q) =>
          // the same instance as the baseline (cached while Redis was up) and a fresh one
          ['redis-same', `redis-${round}`].map(async (id) => {
            const res = await decide(id, q.subject, q.action);
            return `${q.subject} ${q.action} ${id === 'redis-same' ? 'same' : 'fresh'}: ${res.status} ${(res.body as { outcome?: string })?.outcome}`;
          }),
        ),
      );
    const guarded = async () => [
      (await call(`${fleet.url('case-management')}/api/cases`, { headers: fleet.auth() })).status,
      (await call(`${fleet.url('case-management')}/api/cases`, { headers: fleet.auth({ sub: 'nobody' }) })).status,
    ];
    const baseline = await outcomes('before');
    console.log(`[faults] Redis cut: baseline answers ${JSON.stringify(baseline)}`);
    expect(baseline.filter((line) => line.includes(': 200 '))).toHaveLength(baseline.length);
    expect(await guarded()).toEqual([200, 403]);

    const cutAt = Date.now();
    await proxies.redis.stop();
    const answers: string[][] = [];
    let degraded: Answer | undefined;
    let restoredAt = 0;
    try {
      for (let round = 0; round < 5; round++) answers.push(await outcomes(`during-${round}`));
      const guardedDuring = await guarded();
      degraded = await eventually(
        () => ready('authz-decision'),
        (r) => (r.body as { details?: { cache?: { degraded?: boolean } } })?.details?.cache?.degraded === true,
        10_000,
        100,
      );
      const readiness = await Promise.all(services.map(async (s) => `${s} ${(await ready(s)).status}`));
      console.log(
        `[faults] Redis cut: ${answers.length * questions.length * 2} decisions during the outage, guarded list (admin, nobody) ${JSON.stringify(guardedDuring)}; ` +
          `authz-decision readiness ${degraded.status} ${JSON.stringify(degraded.body)}; readiness ${readiness.join(', ')}`,
      );
      expect(guardedDuring).toEqual([200, 403]);
    } finally {
      restoredAt = Date.now();
      await proxies.redis.start();
    }
    for (const round of answers) expect(round).toEqual(baseline);
    expect(degraded?.status).toBe(200);
    expect(degraded?.body).toMatchObject({ details: { cache: { status: 'up', degraded: true } } });

    const recovered = await eventually(
      async () => {
        await decide('redis-after');
        return ready('authz-decision');
      },
      (r) => r.status === 200 && (r.body as { details?: { cache?: { degraded?: boolean } } })?.details?.cache?.degraded !== true,
      15_000,
      100,
    );
    const recoveredMs = Date.now() - restoredAt;
    const after = await outcomes('after');
    console.log(
      `[faults] Redis cut ${restoredAt - cutAt} ms: answers unchanged in ${answers.length} rounds; cache no longer degraded ${recoveredMs} ms after its return`,
    );
    expect(recovered.status).toBe(200);
    expect(after).toEqual(baseline);
    expect(await guarded()).toEqual([200, 403]);
  }, 90_000);

  /**
   * A subscription of the receiver's `path` to `eventTypes`, then one event ingested for it: what
   * the kill -9 faults deliver. `delivery()` reads that event's delivery row, `attempts(id)` its log.
   */
  const subscribeAndIngest = async (path: string, eventTypes: string[], event: { eventType: string; payload: object }) => {
    const subscription = await call(`${fleet.url('webhook-dispatcher')}/api/webhooks/subscriptions`, {
      method: 'POST',
      headers: fleet.auth(),
      body: { callbackUrl: receiver.url(path), eventTypes },
    });
    expect(subscription.status).toBe(201);
    const subscriptionId = (subscription.body as { id: string }).id;
    const eventId = randomUUID();
    const ingest = await call(`${fleet.url('webhook-dispatcher')}/api/webhooks/events`, {
      method: 'POST',
      headers: fleet.auth(),
      body: { ...event, eventId },
    });
    expect(ingest.status).toBe(202);
    const delivery = () =>
      fleet.sql
        .query<{ id: string; status: string; attempt_count: number }>(
          `SELECT "id", "status", "attempt_count" FROM "webhooks"."delivery" WHERE "subscription_id" = $1 AND "event_id" = $2`,
          [subscriptionId, eventId],
        )
        .then((r) => r.rows[0]);
    return { delivery };
  };
  const attemptsOf = async (deliveryId: string) =>
    (
      await fleet.sql.query<{ attempt_number: number; outcome: string }>(
        `SELECT "attempt_number", "outcome" FROM "webhooks"."delivery_attempt" WHERE "delivery_id" = $1 ORDER BY "attempt_number"`,
        [deliveryId],
      )
    ).rows;

  it('kill -9 of webhook-dispatcher while a delivery is due: after the restart it is delivered, succeeded exactly once', async () => {
    let ticketRequests = 0;
    receiver.respondAlways((request) => (request.path === '/tickets' && ++ticketRequests === 1 ? { status: 500 } : { status: 204 }));
    const { delivery } = await subscribeAndIngest('/tickets', ['ticket.*'], { eventType: 'ticket.created', payload: { ticketId: 'T-kill' } });
    // The first attempt failed (500): the delivery is pending, its retry due in about 5 s.
    const pending = await eventually(delivery, (row) => row?.attempt_count === 1, 15_000, 50);
    expect(pending).toMatchObject({ status: 'pending', attempt_count: 1 });

    const killedAt = Date.now();
    await fleet.kill(fleet.process('webhook-dispatcher'), 'SIGKILL');
    await fleet.startService('webhook-dispatcher');
    const restartedMs = Date.now() - killedAt;
    const settled = await eventually(delivery, (row) => row?.status === 'succeeded', 30_000, 100);
    const requests = receiver.requests.filter((r) => r.path === '/tickets');
    const attempts = await attemptsOf(pending!.id);
    console.log(
      `[faults] kill -9 webhook-dispatcher with a delivery due: restarted in ${restartedMs} ms, delivered ${Date.now() - killedAt} ms after the kill; ` +
        `receiver requests ${requests.length}, attempts ${JSON.stringify(attempts)}`,
    );
    expect(settled).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(attempts).toEqual([
      { attempt_number: 1, outcome: 'failed' },
      { attempt_number: 2, outcome: 'succeeded' },
    ]);
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
  }, 90_000);

  it('kill -9 of webhook-dispatcher mid-attempt: after the restart the receiver gets it again with the same webhook-id, succeeded exactly once', async () => {
    let slowRequests = 0;
    // The first attempt is held 1.5 s at the receiver (inside the 2 s attempt timeout): the kill lands in it.
    receiver.respondAlways((request) => (request.path === '/slow' && ++slowRequests === 1 ? { status: 204, delayMs: 1_500 } : { status: 204 }));
    const { delivery } = await subscribeAndIngest('/slow', ['chat.*'], { eventType: 'chat.message.posted', payload: { messageId: 'M-kill' } });
    const slow = () => receiver.requests.filter((r) => r.path === '/slow');
    await eventually(
      async () => slow().length,
      (n) => n === 1,
      15_000,
      10,
    );
    const killedAt = Date.now();
    const victim = fleet.process('webhook-dispatcher');
    await fleet.kill(victim, 'SIGKILL');
    // The service itself is gone, not only its tools/run.mjs wrapper (no process left in its group).
    // (A killed child is reaped by init a moment after its wrapper: poll, bounded.)
    const groupAlive = async () => {
      try {
        process.kill(-(victim.child.pid as number), 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(await eventually(groupAlive, (alive) => !alive, 5_000, 20)).toBe(false);
    await fleet.startService('webhook-dispatcher');
    // The dead process's lease (2 s timeout + 5 s margin) lapses, then the restarted one attempts it.
    const settled = await eventually(delivery, (row) => row?.status === 'succeeded', 45_000, 200);
    const attempts = await attemptsOf(settled!.id);
    console.log(
      `[faults] kill -9 webhook-dispatcher mid-attempt: delivered again ${Date.now() - killedAt} ms after the kill; receiver requests ${slow().length} ` +
        `(webhook-ids ${JSON.stringify([...new Set(slow().map((r) => r.headers['webhook-id']))])}), delivery ${JSON.stringify(settled)}, attempts ${JSON.stringify(attempts)}`,
    );
    expect(settled?.status).toBe('succeeded');
    expect(attempts.filter((a) => a.outcome === 'succeeded')).toHaveLength(1);
    expect(slow()).toHaveLength(2);
    expect(new Set(slow().map((r) => r.headers['webhook-id'])).size).toBe(1);
  }, 90_000);
});

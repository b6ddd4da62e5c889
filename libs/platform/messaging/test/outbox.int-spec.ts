import { EventEnvelope } from '@lp/contracts';
import { initializeServiceDataSource, serviceDataSourceOptions } from '@lp/platform/persistence';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { EventBus } from '../src/lib/events/event-bus';
import { createEventEnvelope } from '../src/lib/events/event-envelope';
import { InProcessEventBus } from '../src/lib/events/in-process-event-bus';
import { RabbitMqEventBus } from '../src/lib/events/rabbitmq-event-bus';
import { InProcessBroker } from '../src/lib/in-process/in-process-broker';
import { IdempotentConsumer } from '../src/lib/outbox/idempotent-consumer';
import { MESSAGING_ENTITIES } from '../src/lib/outbox/messaging-entities';
import { createMessagingTablesMigration, createOutboxTraceparentMigration } from '../src/lib/outbox/messaging-tables.migration';
import { OutboxRelay } from '../src/lib/outbox/outbox-relay';
import { OutboxTransactionRequiredError, OutboxWriter } from '../src/lib/outbox/outbox-writer';
import { RabbitMqAdmin } from './support/rabbitmq-admin';
import { TcpOutageProxy } from '@lp/platform/testing';
import { waitUntil } from './support/wait-until';

const SCHEMA = 'svc_outbox';

describeWithServers(['rabbitmq', 'postgres'], 'transactional outbox and idempotent consumer', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const writer = new OutboxWriter();
  const prefix = `${testRunId('outbox')}.`;
  const consumers: string[] = [];
  const closables: Array<{ close(): Promise<void> } | { stop(): Promise<void> }> = [];
  let n = 0;

  const event = (eventType = 'outbox.thing.happened') => createEventEnvelope(eventType, { n: ++n }, { tenantId: 'tenant-1' });
  const consumer = () => {
    const name = `outbox-consumer-${++n}`;
    consumers.push(name);
    return name;
  };
  function track<T extends { close(): Promise<void> } | { stop(): Promise<void> }>(thing: T): T {
    closables.push(thing);
    return thing;
  }
  const rabbitBus = (url = testServerUrls.rabbitmq, options: { publishTimeoutMs?: number } = {}) =>
    track(new RabbitMqEventBus({ url, prefix, publishTimeoutMs: options.publishTimeoutMs ?? 2_000, reconnectSeconds: 0.1, shutdownGraceMs: 200 }));
  const relayOf = (bus: EventBus, options: ConstructorParameters<typeof OutboxRelay>[2] = {}) =>
    track(new OutboxRelay(dataSource, bus, { pollIntervalMs: 50, backoff: { initialMs: 20, maxMs: 200 }, leaseMs: 5_000, ...options }));

  async function commitEvents(envelopes: EventEnvelope[]): Promise<void> {
    await dataSource.transaction((manager) => writer.add(manager, envelopes));
  }
  async function unsentCount(): Promise<number> {
    const [row] = await dataSource.query(`SELECT count(*)::int AS c FROM "${SCHEMA}"."outbox_message" WHERE "sent_at" IS NULL`);
    return row.c;
  }

  beforeAll(async () => {
    database = await createTestDatabase(testServerUrls.postgres, testRunId('msg'));
    dataSource = await initializeServiceDataSource(
      new DataSource(
        serviceDataSourceOptions({
          url: database.url,
          schema: SCHEMA,
          entities: MESSAGING_ENTITIES,
          migrations: [createMessagingTablesMigration(SCHEMA), createOutboxTraceparentMigration(SCHEMA)],
          poolSize: 6,
        }),
      ),
    );
  });

  afterEach(async () => {
    for (const thing of closables.splice(0).reverse()) await ('stop' in thing ? thing.stop() : thing.close());
    await dataSource.query(`DELETE FROM "${SCHEMA}"."outbox_message"`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    const admin = await RabbitMqAdmin.open(testServerUrls.rabbitmq, prefix);
    await admin.deleteTopology({ consumers });
    await admin.close();
  });

  describe('the migration', () => {
    it('creates both tables in the given schema, then the traceparent column, and drops them again', async () => {
      const tables = async () =>
        (await dataSource.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [SCHEMA])).map(
          (r: { table_name: string }) => r.table_name,
        );
      const columns = async () =>
        (await dataSource.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'outbox_message'`, [SCHEMA])).map(
          (r: { column_name: string }) => r.column_name,
        );
      expect(await tables()).toEqual(expect.arrayContaining(['outbox_message', 'processed_event']));
      expect(await columns()).toContain('traceparent');
      // The newest first: the traceparent column, then the tables.
      await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await columns()).not.toContain('traceparent');
      await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await tables()).not.toContain('outbox_message');
      expect(await tables()).not.toContain('processed_event');
      await dataSource.runMigrations({ transaction: 'each' });
      expect(await tables()).toEqual(expect.arrayContaining(['outbox_message', 'processed_event']));
      expect(await columns()).toContain('traceparent');
    });

    it('is named with a 13-digit timestamp and refuses an unsafe schema name', () => {
      const Migration = createMessagingTablesMigration('authz');
      expect(new Migration().name).toMatch(/^CreateMessagingTables\d{13}$/);
      expect(Migration.name).toBe(new Migration().name);
      expect(() => createMessagingTablesMigration('authz"; DROP TABLE x; --')).toThrow(/Invalid schema name/);
    });
  });

  describe('OutboxWriter', () => {
    it('refuses a manager that is not inside a transaction', async () => {
      await expect(writer.add(dataSource.manager, event())).rejects.toBeInstanceOf(OutboxTransactionRequiredError);
      expect(await unsentCount()).toBe(0);
    });

    it('writes in the caller transaction: the events roll back with it', async () => {
      await expect(
        dataSource.transaction(async (manager) => {
          await writer.add(manager, [event(), event()]);
          throw new Error('the state change failed');
        }),
      ).rejects.toThrow('the state change failed');
      expect(await unsentCount()).toBe(0);
      await commitEvents([event(), event()]);
      expect(await unsentCount()).toBe(2);
    });
  });

  describe('OutboxRelay', () => {
    it('publishes committed rows in order through RabbitMQ, marks them sent and reports no lag', async () => {
      const receiver = rabbitBus();
      const received: EventEnvelope[] = [];
      await receiver.subscribe({ pattern: 'outbox.#', mode: 'service', consumer: consumer(), prefetch: 1 }, async (e) => void received.push(e));
      const relay = relayOf(rabbitBus());
      const sent = Array.from({ length: 5 }, () => event());
      await commitEvents(sent);
      const lagBefore = await relay.lag();
      expect(lagBefore.unsent).toBe(5);
      expect(lagBefore.oldestUnsentAgeMs).toBeGreaterThanOrEqual(0);

      relay.start();
      await waitUntil(() => received.length === 5, 'the five events');
      expect(received.map((e) => e.eventId)).toEqual(sent.map((e) => e.eventId));
      await relay.stop();
      await expect(relay.lag()).resolves.toEqual({ unsent: 0, oldestUnsentAgeMs: null });
    });

    it('publishes right after the commit, without waiting for the next poll', async () => {
      const broker = new InProcessBroker();
      const bus = track(new InProcessEventBus({ broker, prefix }));
      const received: EventEnvelope[] = [];
      await bus.subscribe({ pattern: 'outbox.#', mode: 'service', consumer: 'nudged' }, async (e) => void received.push(e));
      const relay = relayOf(bus, { pollIntervalMs: 60_000 });
      relay.start();
      await sleep(100);
      const started = Date.now();
      await commitEvents([event()]);
      await waitUntil(() => received.length === 1, 'the event', 2_000);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('publishes rows written while the broker was unreachable once it is back, none lost', async () => {
      const broker = new URL(testServerUrls.rabbitmq);
      const proxy = new TcpOutageProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
      await proxy.start();
      try {
        const receiver = rabbitBus();
        const received = new Set<string>();
        await receiver.subscribe({ pattern: 'outbox.#', mode: 'service', consumer: consumer() }, async (e) => void received.add(e.eventId));

        const throughProxy = new URL(testServerUrls.rabbitmq);
        throughProxy.host = proxy.url;
        const bus = rabbitBus(throughProxy.toString(), { publishTimeoutMs: 300 });
        await bus.ping(5_000);
        const relay = relayOf(bus);
        relay.start();

        await proxy.stop();
        await sleep(100);
        await expect(bus.ping(100)).rejects.toThrow(/not connected/);
        const sent: EventEnvelope[] = [];
        for (let batch = 0; batch < 3; batch++) {
          const envelopes = Array.from({ length: 4 }, () => event());
          sent.push(...envelopes);
          await commitEvents(envelopes);
        }
        // The relay tries, is not confirmed, and keeps every row.
        await sleep(800);
        expect(received.size).toBe(0);
        const during = await relay.lag();
        expect(during.unsent).toBe(12);
        expect(during.oldestUnsentAgeMs).toBeGreaterThan(500);
        const [{ attempts }] = await dataSource.query(`SELECT max("attempts")::int AS attempts FROM "${SCHEMA}"."outbox_message"`);
        expect(attempts).toBeGreaterThan(0);

        await proxy.start();
        await waitUntil(() => received.size === 12, 'every event after the outage', 10_000);
        expect([...received].sort()).toEqual(sent.map((e) => e.eventId).sort());
        // A publish that timed out during the outage may still reach the broker once the connection
        // is back (at-least-once); its row stays unsent until the relay's next attempt confirms it.
        let unsent = await unsentCount();
        for (const deadline = Date.now() + 15_000; unsent > 0 && Date.now() < deadline; unsent = await unsentCount()) await sleep(100);
        await relay.stop();
        expect(unsent).toBe(0);
      } finally {
        await proxy.stop();
      }
    });

    it('never publishes a row twice at once when several relays share the table', async () => {
      const publishes: string[] = [];
      class CountingBus extends InProcessEventBus {
        override async publish(envelope: EventEnvelope): Promise<void> {
          publishes.push(envelope.eventId);
          await sleep(1);
          return super.publish(envelope);
        }
      }
      const bus = track(new CountingBus({ broker: new InProcessBroker(), prefix }));
      const sent = Array.from({ length: 120 }, () => event());
      await commitEvents(sent);
      const relays = [relayOf(bus, { batchSize: 10 }), relayOf(bus, { batchSize: 10 }), relayOf(bus, { batchSize: 10 })];
      await Promise.all(relays.map((relay) => relay.relayPending()));
      expect(publishes.sort()).toEqual(sent.map((e) => e.eventId).sort());
      expect(await unsentCount()).toBe(0);
    });

    it('parks a row that can never be published and keeps publishing the others', async () => {
      const broker = new InProcessBroker();
      const bus = track(new InProcessEventBus({ broker, prefix }));
      const received: string[] = [];
      await bus.subscribe({ pattern: '#', mode: 'service', consumer: 'parking' }, async (e) => void received.push(e.eventId));
      const good = event();
      await dataSource.query(`INSERT INTO "${SCHEMA}"."outbox_message" ("event_id", "event_type", "envelope") VALUES ('broken-1', 'outbox.*', $1::jsonb)`, [
        JSON.stringify({ ...event(), eventType: 'outbox.*', eventId: 'broken-1' }),
      ]);
      await commitEvents([good]);
      const relay = relayOf(bus);
      await relay.relayPending();
      await waitUntil(() => received.length === 1, 'the valid event');
      expect(received).toEqual([good.eventId]);
      await expect(relay.relayPending()).resolves.toBe(0);
      const [row] = await dataSource.query(`SELECT "sent_at", "last_error", "attempts" FROM "${SCHEMA}"."outbox_message" WHERE "event_id" = 'broken-1'`);
      expect(row).toEqual({ sent_at: null, last_error: 'invalid envelope', attempts: 1 });
      expect((await relay.lag()).unsent).toBe(1);
    });

    it('stop() waits for the batch in flight and leaves it marked sent', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let publishing = false;
      class SlowBus extends InProcessEventBus {
        override async publish(envelope: EventEnvelope): Promise<void> {
          publishing = true;
          await gate;
          return super.publish(envelope);
        }
      }
      const bus = track(new SlowBus({ broker: new InProcessBroker(), prefix }));
      await commitEvents([event()]);
      const relay = relayOf(bus);
      relay.start();
      await waitUntil(() => publishing, 'the relay to publish');
      let stopped = false;
      const stopping = relay.stop().then(() => (stopped = true));
      await sleep(100);
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(await unsentCount()).toBe(0);
    });
  });

  describe('IdempotentConsumer', () => {
    it('runs the work once per event and consumer, in the same transaction as the record', async () => {
      await dataSource.query(`CREATE TABLE IF NOT EXISTS "${SCHEMA}"."effect" ("event_id" varchar PRIMARY KEY)`);
      const deliveries = new IdempotentConsumer(dataSource, 'webhook-dispatcher:deliveries');
      const e = event();
      const work = async (manager: import('typeorm').EntityManager) => {
        await manager.query(`INSERT INTO "${SCHEMA}"."effect" ("event_id") VALUES ($1)`, [e.eventId]);
      };
      await expect(deliveries.process(e, work)).resolves.toBe(true);
      await expect(deliveries.process(e, work)).resolves.toBe(false);
      // Another consumer of the same event has its own record.
      await expect(new IdempotentConsumer(dataSource, 'workflow-engine').process(e, async () => undefined)).resolves.toBe(true);
      const effects = await dataSource.query(`SELECT count(*)::int AS c FROM "${SCHEMA}"."effect" WHERE "event_id" = $1`, [e.eventId]);
      expect(effects[0].c).toBe(1);
    });

    it('forgets the event when the work fails, so the redelivery runs it', async () => {
      const consumerOfRetries = new IdempotentConsumer(dataSource, 'retrying');
      const e = event();
      await expect(consumerOfRetries.process(e, async () => Promise.reject(new Error('downstream down')))).rejects.toThrow('downstream down');
      let ran = 0;
      await expect(consumerOfRetries.process(e, async () => void ran++)).resolves.toBe(true);
      expect(ran).toBe(1);
    });

    it('lets only one of two concurrent deliveries of an event run the work', async () => {
      const racing = new IdempotentConsumer(dataSource, 'racing');
      const e = event();
      let ran = 0;
      const work = async () => {
        ran += 1;
        await sleep(100);
      };
      const results = await Promise.all([racing.process(e, work), racing.process(e, work)]);
      expect(results.sort()).toEqual([false, true]);
      expect(ran).toBe(1);
    });

    it('handles a duplicate delivery over RabbitMQ once', async () => {
      const receiver = rabbitBus();
      const idempotent = new IdempotentConsumer(dataSource, 'duplicates');
      const handled: string[] = [];
      let deliveries = 0;
      const work = idempotent.handler(async (envelope) => void handled.push(envelope.eventId));
      // Counted once handled: the two deliveries may be handled at once, and the test reads `handled`
      // when both are done, not when the second has merely arrived.
      await receiver.subscribe({ pattern: 'outbox.duplicate', mode: 'service', consumer: consumer() }, async (envelope) => {
        await work(envelope);
        deliveries += 1;
      });
      const publisher = rabbitBus();
      const e = event('outbox.duplicate');
      await publisher.publish(e);
      await publisher.publish(e);
      await waitUntil(() => deliveries === 2, 'both deliveries');
      expect(handled).toEqual([e.eventId]);
    });
  });
});

import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventEnvelope, eventContract, eventFamily, ReceivedEventOf } from '@lp/contracts';
import { z } from 'zod';
import { CorrelationContext } from '@lp/platform/observability';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventBus, EventHandler, SubscribeOptions } from '../src/lib/events/event-bus';
import { createEventEnvelope, InvalidEventEnvelopeError } from '../src/lib/events/event-envelope';
import { createEventBus, EventBusSettings } from '../src/lib/messaging-factories';
import { MessagingProfile } from '../src/lib/messaging-profile';
import { RpcClient } from '../src/lib/rpc/rpc-client';
import { RpcRemoteError, RpcTimeoutError, RpcTransportError } from '../src/lib/rpc/rpc-errors';
import { createRpcClient } from '../src/lib/messaging-factories';
import { rpcMicroserviceOptions } from '../src/lib/rpc/rpc-microservice-options';
import { ContractRpcModule, RpcProbe } from './support/contract-rpc.module';
import { waitUntil } from './support/wait-until';

export interface MessagingTransportHarness {
  /** The transport under test, with a queue prefix of its own. */
  profile: MessagingProfile;
  /** Waits for `expected` dead-lettered events of a service-mode consumer and takes them off its dead-letter queue. */
  takeDeadLetters(consumer: string, expected: number): Promise<EventEnvelope[]>;
  /** Removes the queues and exchanges the suite declared. */
  dispose(used: { services: string[]; consumers: string[] }): Promise<void>;
}

const RETRY = { maxAttempts: 3, initialDelayMs: 20, maxDelayMs: 50 };

/**
 * The semantics both transports must share, so the standalone profile (in-process) cannot drift
 * from the fleet (RabbitMQ). Run by a unit spec over the in-process broker and by an integration
 * spec over RabbitMQ. Everything goes through the public factories, as a service would use them.
 */
export function messagingTransportContract(createHarness: () => Promise<MessagingTransportHarness>): void {
  let harness: MessagingTransportHarness;
  const services: string[] = [];
  const consumers: string[] = [];
  const apps: INestMicroservice[] = [];
  const buses: EventBus[] = [];
  const probes: RpcProbe[] = [];
  let n = 0;

  const newService = () => {
    const service = `svc-${++n}`;
    services.push(service);
    return service;
  };
  const newConsumer = (label = 'group') => {
    const consumer = `${label}-${++n}`;
    consumers.push(consumer);
    return consumer;
  };

  async function startServer(service: string, tag: string, probe: RpcProbe): Promise<INestMicroservice> {
    const app = await NestFactory.createMicroservice(ContractRpcModule.forServer(tag, probe), {
      ...rpcMicroserviceOptions(harness.profile, service),
      logger: false,
    });
    await app.listen();
    apps.push(app);
    return app;
  }

  function openBus(settings: EventBusSettings = {}): EventBus {
    const bus = createEventBus(harness.profile, { retry: RETRY, shutdownGraceMs: 500, publishTimeoutMs: 2_000, ...settings });
    buses.push(bus);
    return bus;
  }

  function collect(into: EventEnvelope[]): EventHandler {
    return async (envelope) => void into.push(envelope);
  }

  const event = (eventType: string, payload: unknown = { n: ++n }) => createEventEnvelope(eventType, payload, { tenantId: 'tenant-1' });

  beforeAll(async () => {
    harness = await createHarness();
  });

  afterAll(async () => {
    probes.forEach((p) => p.openAll());
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(buses.map((bus) => bus.close()));
    await harness?.dispose({ services, consumers });
  });

  describe('RPC', () => {
    let service: string;
    let client: RpcClient;
    const probe = new RpcProbe();
    probes.push(probe);

    beforeAll(async () => {
      service = newService();
      await startServer(service, 'A', probe);
      await startServer(service, 'B', probe);
      client = createRpcClient(harness.profile, { routes: { contract: service }, defaultTimeoutMs: 3_000 });
    });

    afterAll(async () => {
      await client.close();
    });

    it('answers a request with the handler result, as JSON', async () => {
      const when = new Date('2026-11-21T10:00:00.000Z');
      const answer = await client.send<{ data: unknown; server: string }>('contract.echo', { a: 1, when, list: [1, 'two'] });
      expect(answer.data).toEqual({ a: 1, when: '2026-11-21T10:00:00.000Z', list: [1, 'two'] });
      expect(['A', 'B']).toContain(answer.server);
    });

    it('keeps concurrent calls apart', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.send<{ data: { i: number } }>('contract.echo', { i })));
      expect(answers.map((a) => a.data.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it('carries the caller correlation id to the handler', async () => {
      const answer = await CorrelationContext.run('corr-rpc-1', () => client.send<{ correlationId: string }>('contract.whoami', {}));
      expect(answer.correlationId).toBe('corr-rpc-1');
    });

    it('gives a handler a correlation id even when the caller had none', async () => {
      const answer = await client.send<{ correlationId: string | null }>('contract.whoami', {});
      expect(answer.correlationId).toEqual(expect.stringMatching(/.+/));
    });

    it('turns a domain error into a problem with its code, status and the correlation id', async () => {
      const error = await CorrelationContext.run('corr-rpc-2', () => client.send('contract.conflict', {})).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcRemoteError);
      expect((error as RpcRemoteError).problem).toEqual(
        expect.objectContaining({ status: 409, code: 'Contract.Conflict', detail: 'The thing already exists.', correlationId: 'corr-rpc-2' }),
      );
    });

    it('keeps code and status of any error that names them', async () => {
      const error = await client.send('contract.coded', {}).catch((e: unknown) => e);
      expect((error as RpcRemoteError).problem).toEqual(
        expect.objectContaining({ status: 429, code: 'Contract.Quota', detail: 'Quota exceeded for this tenant.' }),
      );
    });

    it('answers an unexpected error with a generic 500 problem and no internals', async () => {
      const error = await client.send('contract.crash', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcRemoteError);
      const problem = (error as RpcRemoteError).problem;
      expect(problem).toEqual(expect.objectContaining({ status: 500, code: 'InternalError' }));
      expect(JSON.stringify(problem)).not.toMatch(/hunter2|postgres/);
    });

    it('restores the correlation id before guards run and returns a guard denial as a problem', async () => {
      const error = await CorrelationContext.run('corr-guard', () => client.send('contract.guarded', {})).catch((e: unknown) => e);
      expect((error as RpcRemoteError).problem).toEqual(expect.objectContaining({ status: 403, code: 'Authorization.Denied' }));
      expect(probe.guardSaw).toContain('corr-guard');
    });

    it('rejects with RpcTimeoutError when no answer comes in time', async () => {
      const started = Date.now();
      const error = await client.send('contract.slow', { ms: 1_500 }, { timeoutMs: 150 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcTimeoutError);
      expect((error as RpcTimeoutError).problem.status).toBe(504);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('answers a pattern nobody handles with a remote error', async () => {
      const error = await client.send('contract.nobody-home', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcRemoteError);
      expect((error as RpcRemoteError).problem.code).toBe('Rpc.NoHandler');
    });

    it('refuses a pattern no route names a service for', async () => {
      await expect(client.send('unrouted.thing', {})).rejects.toBeInstanceOf(RpcTransportError);
    });

    it('shares the load between the servers of one queue (competing consumers)', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, () => client.send<{ server: string }>('contract.slow', { ms: 40 })));
      expect(new Set(answers.map((a) => a.server))).toEqual(new Set(['A', 'B']));
    });

    it('hands a request to another server when the one handling it dies before answering', async () => {
      const holdService = newService();
      const holdProbe = new RpcProbe();
      probes.push(holdProbe);
      const dying = await startServer(holdService, 'dying', holdProbe);
      const holdClient = createRpcClient(harness.profile, { routes: { contract: holdService } });
      try {
        const answer = holdClient.send<{ server: string }>('contract.hold', {}, { timeoutMs: 5_000 });
        await waitUntil(() => holdProbe.started.includes('dying'), 'the first server to take the request');
        holdProbe.open('survivor');
        await startServer(holdService, 'survivor', holdProbe);
        await dying.close();
        await expect(answer).resolves.toEqual({ server: 'survivor' });
        expect(holdProbe.started).toEqual(['dying', 'survivor']);
      } finally {
        await holdClient.close();
      }
    });

    it('rejects calls after close with a transport error', async () => {
      const closing = createRpcClient(harness.profile, { routes: { contract: service } });
      await closing.close();
      await expect(closing.send('contract.echo', {})).rejects.toBeInstanceOf(RpcTransportError);
    });
  });

  describe('integration events', () => {
    const subscribe = (bus: EventBus, options: Omit<SubscribeOptions, 'pattern'> & { pattern: string }, handler: EventHandler) =>
      bus.subscribe(options, handler);

    it('delivers an event with its envelope and runs the handler in its correlation id', async () => {
      const bus = openBus();
      const consumer = newConsumer();
      const seen: Array<{ envelope: EventEnvelope; correlationId?: string }> = [];
      await subscribe(bus, { pattern: 'contract.basic.#', mode: 'service', consumer }, async (envelope) => {
        seen.push({ envelope, correlationId: CorrelationContext.current() });
      });
      const sent = CorrelationContext.run('corr-event-1', () => event('contract.basic.happened', { answer: 42 }));
      await bus.publish(sent);
      await waitUntil(() => seen.length === 1, 'the event');
      expect(seen[0]?.envelope).toEqual(sent);
      expect(seen[0]?.correlationId).toBe('corr-event-1');
    });

    it('subscribes a family by its descriptor: each event comes with its contract and its payload checked', async () => {
      const bus = openBus();
      const family = eventFamily('contract.family.#', {
        opened: eventContract('contract.family.opened', z.strictObject({ id: z.string() })),
      });
      const seen: ReceivedEventOf<typeof family>[] = [];
      await bus.subscribeTo(family, { mode: 'service', consumer: newConsumer() }, async (received) => void seen.push(received));
      const good = event('contract.family.opened', { id: 'a' });
      const malformed = event('contract.family.opened', { id: 7 });
      const undeclared = event('contract.family.renamed', { id: 'b' });
      for (const envelope of [good, malformed, undeclared]) await bus.publish(envelope);
      await waitUntil(() => seen.length === 3, 'the three events of the family');
      const byId = new Map(seen.map((r) => [r.envelope.eventId, r]));
      expect(byId.get(good.eventId)).toMatchObject({ contract: family.contracts.opened, payload: { id: 'a' } });
      // Received, but seen for what it is: the contract's shape is not trusted blindly.
      expect(byId.get(malformed.eventId)).toMatchObject({ contract: family.contracts.opened, payload: undefined });
      expect(byId.get(undeclared.eventId)).toMatchObject({ contract: undefined, payload: undefined });
    });

    it('routes by pattern: each handler of a consumer gets only what it asked for', async () => {
      const bus = openBus();
      const consumer = newConsumer();
      const a: EventEnvelope[] = [];
      const b: EventEnvelope[] = [];
      await subscribe(bus, { pattern: 'contract.route.a.*', mode: 'service', consumer }, collect(a));
      await subscribe(bus, { pattern: 'contract.route.b.#', mode: 'service', consumer }, collect(b));
      for (const type of ['contract.route.a.x', 'contract.route.b.y.z', 'contract.route.c.x', 'contract.route.a.x.deeper']) {
        await bus.publish(event(type));
      }
      await waitUntil(() => a.length === 1 && b.length === 1, 'the two matching events');
      await sleep(150);
      expect(a.map((e) => e.eventType)).toEqual(['contract.route.a.x']);
      expect(b.map((e) => e.eventType)).toEqual(['contract.route.b.y.z']);
    });

    it('fans an instance-mode event out to every instance, once each', async () => {
      const consumer = newConsumer('cache');
      const first: EventEnvelope[] = [];
      const second: EventEnvelope[] = [];
      await subscribe(openBus(), { pattern: 'contract.fanout.#', mode: 'instance', consumer }, collect(first));
      await subscribe(openBus(), { pattern: 'contract.fanout.#', mode: 'instance', consumer }, collect(second));
      const publisher = openBus();
      const sent = [event('contract.fanout.one'), event('contract.fanout.two'), event('contract.fanout.three')];
      for (const e of sent) await publisher.publish(e);
      await waitUntil(() => first.length === 3 && second.length === 3, 'every instance to get every event');
      await sleep(100);
      expect(first.map((e) => e.eventId)).toEqual(sent.map((e) => e.eventId));
      expect(second.map((e) => e.eventId)).toEqual(sent.map((e) => e.eventId));
    });

    it('delivers a service-mode event once per consuming service, shared among its instances', async () => {
      const group = newConsumer();
      const otherGroup = newConsumer();
      const byInstance: [EventEnvelope[], EventEnvelope[]] = [[], []];
      const other: EventEnvelope[] = [];
      const slowly =
        (into: EventEnvelope[]): EventHandler =>
        async (e) => {
          await sleep(5);
          into.push(e);
        };
      await subscribe(openBus(), { pattern: 'contract.group.#', mode: 'service', consumer: group, prefetch: 1 }, slowly(byInstance[0]));
      await subscribe(openBus(), { pattern: 'contract.group.#', mode: 'service', consumer: group, prefetch: 1 }, slowly(byInstance[1]));
      await subscribe(openBus(), { pattern: 'contract.group.#', mode: 'service', consumer: otherGroup }, collect(other));
      const publisher = openBus();
      const sent = Array.from({ length: 10 }, () => event('contract.group.work'));
      await Promise.all(sent.map((e) => publisher.publish(e)));

      const received = () => [...byInstance[0], ...byInstance[1]];
      await waitUntil(() => received().length === 10 && other.length === 10, 'each group to get all ten events');
      await sleep(150);
      expect(
        received()
          .map((e) => e.eventId)
          .sort(),
      ).toEqual(sent.map((e) => e.eventId).sort());
      expect(other.map((e) => e.eventId).sort()).toEqual(sent.map((e) => e.eventId).sort());
      expect(byInstance[0].length).toBeGreaterThan(0);
      expect(byInstance[1].length).toBeGreaterThan(0);
    });

    it('retries a failing service-mode event, then dead-letters it', async () => {
      const bus = openBus();
      const consumer = newConsumer();
      let calls = 0;
      await subscribe(bus, { pattern: 'contract.poison', mode: 'service', consumer }, async () => {
        calls += 1;
        throw new Error('handler keeps failing');
      });
      const sent = event('contract.poison');
      await bus.publish(sent);
      const dead = await harness.takeDeadLetters(consumer, 1);
      expect(dead.map((e) => e.eventId)).toEqual([sent.eventId]);
      expect(calls).toBe(RETRY.maxAttempts);
      await sleep(150);
      expect(calls).toBe(RETRY.maxAttempts);
    });

    it('retries a transient failure until the handler succeeds, without dead-lettering', async () => {
      const bus = openBus();
      const consumer = newConsumer();
      let calls = 0;
      await subscribe(bus, { pattern: 'contract.flaky', mode: 'service', consumer }, async () => {
        calls += 1;
        if (calls < 3) throw new Error('not yet');
      });
      await bus.publish(event('contract.flaky'));
      await waitUntil(() => calls === 3, 'the third attempt');
      await expect(harness.takeDeadLetters(consumer, 0)).resolves.toEqual([]);
    });

    it('retries a failing instance-mode event a few times, then drops it', async () => {
      const bus = openBus();
      let calls = 0;
      await subscribe(bus, { pattern: 'contract.instance-poison', mode: 'instance', consumer: newConsumer('cache') }, async () => {
        calls += 1;
        throw new Error('cannot invalidate');
      });
      await bus.publish(event('contract.instance-poison'));
      await waitUntil(() => calls === RETRY.maxAttempts, 'every attempt');
      await sleep(200);
      expect(calls).toBe(RETRY.maxAttempts);
    });

    it('redelivers to another instance when the consumer dies before acknowledging', async () => {
      const consumer = newConsumer();
      const dying = openBus({ shutdownGraceMs: 0 });
      const started: string[] = [];
      await subscribe(dying, { pattern: 'contract.crash.#', mode: 'service', consumer }, async (e) => {
        started.push(e.eventId);
        await new Promise<void>(() => undefined);
      });
      const sent = event('contract.crash.midway');
      await openBus().publish(sent);
      await waitUntil(() => started.length === 1, 'the first instance to take the event');

      const survivor: EventEnvelope[] = [];
      await subscribe(openBus(), { pattern: 'contract.crash.#', mode: 'service', consumer }, collect(survivor));
      await sleep(100);
      expect(survivor).toEqual([]);
      await dying.close();
      await waitUntil(() => survivor.length === 1, 'the redelivery');
      expect(survivor[0]?.eventId).toBe(sent.eventId);
    });

    it('keeps events for a service while it is not consuming (durable queue and bindings)', async () => {
      const consumer = newConsumer();
      const first = await openBus().subscribe({ pattern: 'contract.offline.#', mode: 'service', consumer }, async () => undefined);
      await first.unsubscribe();
      const sent = event('contract.offline.meanwhile');
      await openBus().publish(sent);
      await sleep(100);
      const later: EventEnvelope[] = [];
      await openBus().subscribe({ pattern: 'contract.offline.#', mode: 'service', consumer }, collect(later));
      await waitUntil(() => later.length === 1, 'the event published while nobody consumed');
      expect(later[0]?.eventId).toBe(sent.eventId);
    });

    it('does not lose a backlog that arrives before the handler for its pattern subscribed', async () => {
      const consumer = newConsumer();
      const earlier = openBus();
      const a = await earlier.subscribe({ pattern: 'contract.backlog.a', mode: 'service', consumer }, async () => undefined);
      const b = await earlier.subscribe({ pattern: 'contract.backlog.b', mode: 'service', consumer }, async () => undefined);
      await a.unsubscribe();
      await b.unsubscribe();
      const publisher = openBus();
      const sent = [event('contract.backlog.b'), event('contract.backlog.a'), event('contract.backlog.b')];
      for (const e of sent) await publisher.publish(e);
      await sleep(100);

      const restarted = openBus();
      const received: EventEnvelope[] = [];
      await restarted.subscribe({ pattern: 'contract.backlog.a', mode: 'service', consumer }, collect(received));
      await restarted.subscribe({ pattern: 'contract.backlog.b', mode: 'service', consumer }, collect(received));
      await waitUntil(() => received.length === 3, 'the whole backlog');
      expect(received.map((e) => e.eventId).sort()).toEqual(sent.map((e) => e.eventId).sort());
      await expect(harness.takeDeadLetters(consumer, 0)).resolves.toEqual([]);
    });

    it('refuses to publish an envelope that cannot be routed', async () => {
      const bad = { ...event('contract.valid'), eventType: 'contract.*' };
      await expect(openBus().publish(bad)).rejects.toBeInstanceOf(InvalidEventEnvelopeError);
    });

    it('answers ping while open and refuses after close', async () => {
      const bus = openBus();
      await expect(bus.ping()).resolves.toBeUndefined();
      await bus.close();
      await expect(bus.ping()).rejects.toThrow();
      await expect(bus.publish(event('contract.closed'))).rejects.toThrow(/closed/);
    });
  });
}

import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DeadlineScope, DEADLINE_HEADER, RequestDeadline, rpcRequestsExpired } from '@lp/platform/observability';
import { describeWithServers, eventually, testRunId, testServerUrls } from '@lp/platform/testing';
import { InProcessBroker } from '../src/lib/in-process/in-process-broker';
import { MessagingProfile } from '../src/lib/messaging-profile';
import { InProcessRpcClient } from '../src/lib/rpc/in-process-rpc-client';
import { RabbitMqRpcClient } from '../src/lib/rpc/rabbitmq-rpc-client';
import { RpcClient } from '../src/lib/rpc/rpc-client';
import { RpcDeadlineExceededError, RpcTimeoutError } from '../src/lib/rpc/rpc-errors';
import { rpcMicroserviceOptions } from '../src/lib/rpc/rpc-microservice-options';
import { ContractRpcModule, RpcProbe } from './support/contract-rpc.module';
import { RabbitMqAdmin } from './support/rabbitmq-admin';

/** Runs `fn` as part of a request with `remainingMs` left of its budget. */
function withinRequest<T>(remainingMs: number, fn: () => T): T {
  return RequestDeadline.run(new DeadlineScope(Date.now() + remainingMs), fn);
}

async function expiredCount(service: string, pattern: string): Promise<number> {
  const metric = await rpcRequestsExpired.get();
  return metric.values.find((v) => v.labels.service === service && v.labels.pattern === pattern)?.value ?? 0;
}

const PASSED = () => String(Date.now() - 1_000);

class LateRabbitMqRpcClient extends RabbitMqRpcClient {
  protected override requestHeaders(timeoutMs: number): Record<string, string> {
    return { ...super.requestHeaders(timeoutMs), [DEADLINE_HEADER]: PASSED() };
  }
}

class LateInProcessRpcClient extends InProcessRpcClient {
  protected override requestHeaders(timeoutMs: number): Record<string, string> {
    return { ...super.requestHeaders(timeoutMs), [DEADLINE_HEADER]: PASSED() };
  }
}

/**
 * Deadlines travel with RPCs on both transports: a call waits no longer than its request has left,
 * the server sees that deadline, and a request whose caller has given up is dropped by the server
 * without running, so a backlog of abandoned requests does not delay the ones still waited for.
 */
function rpcDeadlineSuite(transport: 'in-process' | 'rabbitmq'): void {
  const prefix = `${testRunId(`deadline-${transport}`)}.`;
  const broker = new InProcessBroker();
  const profile: MessagingProfile =
    transport === 'rabbitmq' ? { kind: 'rabbitmq', url: testServerUrls.rabbitmq, prefix } : { kind: 'in-process', prefix, broker };
  const services: string[] = [];
  const apps: INestMicroservice[] = [];
  const clients: RpcClient[] = [];
  let n = 0;

  /** A service with one server (prefetch as given), its probe, and a client routed to it. */
  async function serviceWithServer(prefetchCount = 4, client: (routes: Record<string, string>) => RpcClient = (routes) => newClient(routes)) {
    const service = `deadline-svc-${++n}`;
    services.push(service);
    const probe = new RpcProbe();
    const app = await NestFactory.createMicroservice(ContractRpcModule.forServer(service, probe), {
      ...rpcMicroserviceOptions(profile, service, { prefetchCount }),
      logger: false,
    });
    await app.listen();
    apps.push(app);
    const c = client({ contract: service });
    clients.push(c);
    return { service, probe, client: c };
  }

  function newClient(routes: Record<string, string>): RpcClient {
    return transport === 'rabbitmq'
      ? new RabbitMqRpcClient({ url: testServerUrls.rabbitmq, prefix, routes })
      : new InProcessRpcClient({ prefix, broker, routes });
  }

  /** A client whose requests arrive with their deadline already passed (their caller gave up while they travelled). */
  function lateClient(routes: Record<string, string>): RpcClient {
    return transport === 'rabbitmq'
      ? new LateRabbitMqRpcClient({ url: testServerUrls.rabbitmq, prefix, routes })
      : new LateInProcessRpcClient({ prefix, broker, routes });
  }

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(apps.map((a) => a.close()));
    if (transport === 'rabbitmq') {
      const admin = await RabbitMqAdmin.open(testServerUrls.rabbitmq, prefix);
      await admin.deleteTopology({ services });
      await admin.close();
    }
  });

  it('waits no longer than what is left of the request, and the handler runs within that deadline', async () => {
    const { client, probe, service } = await serviceWithServer();
    const seen = await withinRequest(2_000, () => client.send<{ remainingMs: number | null }>('contract.deadline', {}, { timeoutMs: 30_000 }));
    expect(seen.remainingMs).toBeGreaterThan(0);
    expect(seen.remainingMs).toBeLessThanOrEqual(2_000);
    // Outside any request the call's own timeout is the deadline.
    const plain = await client.send<{ remainingMs: number | null }>('contract.deadline', {}, { timeoutMs: 5_000 });
    expect(plain.remainingMs).toBeGreaterThan(2_000);

    const started = performance.now();
    // The request's deadline cut the wait short, not the callee's own timeout: said as such.
    const cut = withinRequest(300, () => client.send('contract.hold', {}, { timeoutMs: 30_000 }));
    await expect(cut).rejects.toBeInstanceOf(RpcDeadlineExceededError);
    await expect(cut).rejects.toThrow(/all that was left of the request's deadline/);
    expect(performance.now() - started).toBeLessThan(5_000);
    probe.open(service);
  });

  it('sends nothing for a request whose budget is spent', async () => {
    const { client, probe } = await serviceWithServer();
    await expect(withinRequest(-1, () => client.send('contract.hold', {}, { timeoutMs: 5_000 }))).rejects.toBeInstanceOf(RpcDeadlineExceededError);
    // The queue is FIFO: once a later request is answered, an earlier one would have been delivered.
    await client.send('contract.echo', {});
    expect(probe.started).toEqual([]);
  });

  it('drops a request whose deadline has passed on arrival without running it, then serves the next', async () => {
    const { service, probe } = await serviceWithServer(4, lateClient);
    const late = clients[clients.length - 1]!;
    const before = await expiredCount(service, 'contract.hold');
    // No deadline of its own request here: the callee's timeout, not a deadline of the caller's.
    const dropped = late.send('contract.hold', {}, { timeoutMs: 500 });
    await expect(dropped).rejects.toBeInstanceOf(RpcTimeoutError);
    await expect(dropped).rejects.not.toBeInstanceOf(RpcDeadlineExceededError);
    expect(
      await eventually(
        () => expiredCount(service, 'contract.hold'),
        (c) => c === before + 1,
      ),
    ).toBe(before + 1);
    expect(probe.started).toEqual([]);

    const fresh = newClient({ contract: service });
    clients.push(fresh);
    probe.open(service);
    await expect(fresh.send('contract.hold', {}, { timeoutMs: 5_000 })).resolves.toEqual({ server: service });
    expect(probe.started).toEqual([service]);
  });

  it('answers a fresh request promptly after a backlog whose callers gave up, without running the abandoned ones', async () => {
    // One request at a time, and that one held: everything else waits in the queue.
    const { client, probe, service } = await serviceWithServer(1);
    const held = client.send('contract.hold', {}, { timeoutMs: 30_000 });
    await eventually(
      async () => probe.started.length,
      (c) => c === 1,
    );
    const abandoned = await Promise.allSettled(Array.from({ length: 20 }, () => client.send('contract.hold', {}, { timeoutMs: 200 })));
    expect(abandoned.every((r) => r.status === 'rejected' && r.reason instanceof RpcTimeoutError)).toBe(true);

    probe.open(service);
    await expect(held).resolves.toEqual({ server: service });
    const started = performance.now();
    await expect(client.send('contract.hold', {}, { timeoutMs: 5_000 })).resolves.toEqual({ server: service });
    expect(performance.now() - started).toBeLessThan(2_000);
    // The held request and the fresh one ran; none of the 20 abandoned ones did.
    expect(probe.started).toEqual([service, service]);
  });
}

describe('RPC deadlines over the in-process transport', () => rpcDeadlineSuite('in-process'));
describeWithServers(['rabbitmq'], 'RPC deadlines over RabbitMQ', () => rpcDeadlineSuite('rabbitmq'));

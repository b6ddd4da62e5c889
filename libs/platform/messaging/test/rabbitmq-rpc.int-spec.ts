import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describeWithServers, testRunId, testServerUrls } from '@lp/platform/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { RabbitMqRpcClient } from '../src/lib/rpc/rabbitmq-rpc-client';
import { RpcTransportError } from '../src/lib/rpc/rpc-errors';
import { rpcMicroserviceOptions } from '../src/lib/rpc/rpc-microservice-options';
import { ContractRpcModule, RpcProbe } from './support/contract-rpc.module';
import { RabbitMqAdmin } from './support/rabbitmq-admin';

describeWithServers(['rabbitmq', 'postgres'], 'RPC over RabbitMQ: broker and server availability', () => {
  const prefix = `${testRunId('rpc')}.`;
  const clients: RabbitMqRpcClient[] = [];
  const apps: INestMicroservice[] = [];

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(apps.map((a) => a.close()));
    const admin = await RabbitMqAdmin.open(testServerUrls.rabbitmq, prefix);
    await admin.deleteTopology({ services: ['late-svc'] });
    await admin.close();
  });

  it('fails fast with a transport error when the broker cannot be reached', async () => {
    const client = new RabbitMqRpcClient({ url: 'amqp://guest:guest@127.0.0.1:1', prefix, routes: { contract: 'nowhere' } });
    clients.push(client);
    const started = Date.now();
    await expect(client.send('contract.echo', {}, { timeoutMs: 3_000 })).rejects.toBeInstanceOf(RpcTransportError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('keeps a request in the durable queue until a server comes up within the timeout', async () => {
    const client = new RabbitMqRpcClient({ url: testServerUrls.rabbitmq, prefix, routes: { contract: 'late-svc' } });
    clients.push(client);
    const answer = client.send<{ data: unknown }>('contract.echo', { early: true }, { timeoutMs: 3_000 });
    await sleep(300);
    const app = await NestFactory.createMicroservice(ContractRpcModule.forServer('late', new RpcProbe()), {
      ...rpcMicroserviceOptions({ kind: 'rabbitmq', url: testServerUrls.rabbitmq, prefix }, 'late-svc'),
      logger: false,
    });
    apps.push(app);
    await app.listen();
    await expect(answer).resolves.toEqual({ data: { early: true }, server: 'late' });
  });
});

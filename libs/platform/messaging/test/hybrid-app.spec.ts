import { Controller, INestApplication, Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DomainError } from '@lp/contracts';
import { ProblemDetailsFilter } from '@lp/platform/http';
import { EventBus } from '../src/lib/events/event-bus';
import { InProcessBroker } from '../src/lib/in-process/in-process-broker';
import { MessagingModule } from '../src/lib/messaging.module';
import { MessagingProfile } from '../src/lib/messaging-profile';
import { RpcClient } from '../src/lib/rpc/rpc-client';
import { RpcRemoteError, RpcTransportError } from '../src/lib/rpc/rpc-errors';
import { rpcMicroserviceOptions } from '../src/lib/rpc/rpc-microservice-options';

/** A plain controller: no RpcProblemFilter, only the platform's global HTTP filter. */
@Controller()
class PlainRpcController {
  @MessagePattern('hybrid.echo')
  echo(@Payload() data: unknown) {
    return { data };
  }

  @MessagePattern('hybrid.conflict')
  conflict(): never {
    throw new DomainError('Hybrid.Conflict', 409, 'Already taken.');
  }
}

/**
 * The runtime's wiring of a service: a hybrid HTTP + RPC app sharing the app config
 * (`inheritAppConfig`), with the HTTP problem filter registered globally. That filter re-throws in
 * the RPC context; the RPC server must still answer with the problem.
 */
describe('a hybrid service app on the in-process transport', () => {
  const profile: MessagingProfile = { kind: 'in-process', prefix: 'hybrid.', broker: new InProcessBroker() };
  let app: INestApplication;

  beforeAll(async () => {
    @Module({
      imports: [MessagingModule.forRoot({ profile, service: 'hybrid-svc', rpc: { routes: { hybrid: 'hybrid-svc' } } })],
      controllers: [PlainRpcController],
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }],
    })
    class HybridAppModule {}

    app = await NestFactory.create(HybridAppModule, { logger: false });
    app.connectMicroservice(rpcMicroserviceOptions(profile, 'hybrid-svc'), { inheritAppConfig: true });
    await app.startAllMicroservices();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('serves its handlers to the RpcClient the messaging module provides', async () => {
    await expect(app.get(RpcClient).send('hybrid.echo', { x: 1 })).resolves.toEqual({ data: { x: 1 } });
  });

  it('answers a domain error with its problem although the global filter is HTTP-only', async () => {
    const error = await app
      .get(RpcClient)
      .send('hybrid.conflict', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcRemoteError);
    expect((error as RpcRemoteError).problem).toEqual(expect.objectContaining({ status: 409, code: 'Hybrid.Conflict', detail: 'Already taken.' }));
  });

  it('closes the RpcClient and the EventBus when the app shuts down', async () => {
    const client = app.get(RpcClient);
    const bus = app.get(EventBus);
    await app.close();
    await expect(bus.ping()).rejects.toThrow(/closed/);
    await expect(client.send('hybrid.echo', {})).rejects.toBeInstanceOf(RpcTransportError);
  });
});

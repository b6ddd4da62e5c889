import { INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SkipAuthorization, authzGuard } from '@lp/authz-guard';
import { createRpcClient, MessagingProfile, RpcClient, RpcController, rpcMicroserviceOptions } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';

/**
 * The echo server of the RPC floor: a bare Nest microservice on the RPC transport answering
 * `bench.echo` with its payload, and a client routed to it. Used by the floor itself
 * (`rpc-echo.bench.ts`) and by the profiling passes that need it next to a real service.
 */
@RpcController()
class EchoController {
  @MessagePattern('bench.echo')
  echo(@Payload() data: unknown) {
    return data;
  }
}
@Module({ controllers: [EchoController] })
class EchoModule {}

@RpcController()
class PlatformEchoController {
  @MessagePattern('bench.echo')
  @SkipAuthorization("bench: the floor's echo served as a platform service")
  echo(@Payload() data: unknown) {
    return data;
  }
}
@Module({ controllers: [PlatformEchoController] })
class PlatformEchoModule {}

/**
 * The same echo as a service of the platform runtime (`createServiceApp`): its RPC server has what
 * every service's has (authorization guard, validation pipe, problem filter, metrics, correlation).
 * Served next to authz-decision in one process, it tells the platform's cost per message apart
 * from the decision's own work. Clients route `bench.echo` to it with `{ bench: 'bench-echo' }`.
 */
export const platformEchoService = defineService({
  name: 'bench-echo',
  authorization: authzGuard,
  routePrefixes: ['/bench-echo'],
  database: { schema: 'bench_echo', entities: [], migrations: [] },
  modules: [PlatformEchoModule],
  openApi: { title: 'Bench echo', description: "The RPC floor's echo as a platform service (bench only)." },
});

export interface EchoServer {
  server: INestMicroservice;
  client: RpcClient;
  close(): Promise<void>;
}

export async function startEchoServer(profile: MessagingProfile): Promise<EchoServer> {
  const server: INestMicroservice = await NestFactory.createMicroservice(EchoModule, { ...rpcMicroserviceOptions(profile, 'bench'), logger: false });
  await server.listen();
  const client = createRpcClient(profile, { routes: { bench: 'bench' } });
  return {
    server,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

import { INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { createRpcClient, MessagingProfile, RpcClient, RpcController, rpcMicroserviceOptions } from '@lp/platform/messaging';

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

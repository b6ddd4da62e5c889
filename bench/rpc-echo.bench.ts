import { INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { createRpcClient, MessagingProfile, RpcController, rpcMicroserviceOptions } from '@lp/platform/messaging';
import { LatencySummary, measure } from './latency-stats';

/**
 * The floor every later RPC ratio is taken against: an echo round trip through the real RPC
 * client and server (Nest handler, correlation headers, problem mapping), over RabbitMQ and over
 * the in-process transport.
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

export interface EchoResult extends LatencySummary {
  transport: string;
  concurrency: number;
}

export async function benchRpcEcho(profile: MessagingProfile, label: string, sizes: { c1: number; c64: number }): Promise<EchoResult[]> {
  const server: INestMicroservice = await NestFactory.createMicroservice(EchoModule, { ...rpcMicroserviceOptions(profile, 'bench'), logger: false });
  await server.listen();
  const client = createRpcClient(profile, { routes: { bench: 'bench' } });
  const payload = { tenantId: 'bench', action: 'View', resource: { module: 'cases', resourceType: 'case', resourceId: 'c-1' } };
  try {
    const results: EchoResult[] = [];
    for (const [concurrency, total] of [
      [1, sizes.c1],
      [64, sizes.c64],
    ] as const) {
      const summary = await measure(() => client.send('bench.echo', payload, { timeoutMs: 10_000 }), { total, concurrency, warmup: 200 });
      results.push({ transport: label, concurrency, ...summary });
    }
    return results;
  } finally {
    await client.close();
    await server.close();
  }
}

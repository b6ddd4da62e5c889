import { MessagingProfile } from '@lp/platform/messaging';
import { startEchoServer } from './echo-server';
import { LatencySummary, measure } from './latency-stats';

export interface EchoResult extends LatencySummary {
  transport: string;
  concurrency: number;
}

/**
 * The floor every later RPC ratio is taken against: an echo round trip through the real RPC
 * client and server (Nest handler, correlation headers, problem mapping), over RabbitMQ and over
 * the in-process transport.
 */
export async function benchRpcEcho(profile: MessagingProfile, label: string, sizes: { c1: number; c64: number }): Promise<EchoResult[]> {
  const echo = await startEchoServer(profile);
  const { client } = echo;
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
    await echo.close();
  }
}

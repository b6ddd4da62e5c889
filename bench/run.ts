/**
 * `npm run bench`: benchmarks against floors measured in the same run. Needs RabbitMQ on AMQP_URL
 * (default 127.0.0.1); set BENCH_QUICK=1 for a short smoke run, BENCH_ONLY=decide (comma list of
 * casbin, decide, decide-processes, cache, redis-stall, scheduler, mcp, workflow, workflow-reports, webhooks, tracing) to run only those after the echo floor, BENCH_PROFILE=always to profile
 * the decision RPC even when it passes.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { formatTable } from './latency-stats';
import { benchDecisionCoreVsCasbin } from './decision-core-vs-casbin.bench';
import { benchDecisionCache } from './decision-cache.bench';
import { benchDecisionRpc } from './decision-rpc.bench';
import { benchDecisionRpcProcesses } from './decision-rpc-processes.bench';
import { deleteBrokerObjects } from '@lp/platform/testing';
import { benchRpcEcho } from './rpc-echo.bench';
import { benchRedisStall } from './redis-stall.bench';
import { benchScheduler } from './scheduler.bench';
import { benchMcp } from './mcp.bench';
import { benchWorkflow } from './workflow.bench';
import { benchWorkflowReports } from './workflow-reports.bench';
import { benchWebhooks } from './webhooks.bench';
import { benchTracing } from './tracing.bench';

/** BENCH_PROFILE=always|never: the decision bench's profiling pass (default: only when a ratio fails). */
function profileMode(): 'on-fail' | 'always' | 'never' {
  const mode = process.env.BENCH_PROFILE ?? 'on-fail';
  if (mode !== 'on-fail' && mode !== 'always' && mode !== 'never') throw new Error(`BENCH_PROFILE must be on-fail, always or never, got ${mode}`);
  return mode;
}

async function main(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const sizes = quick ? { c1: 300, c64: 2_000 } : { c1: 3_000, c64: 30_000 };
  const prefix = `bench_${randomBytes(3).toString('hex')}.`;
  const amqp = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
  const only = new Set(
    (process.env.BENCH_ONLY ?? 'casbin,decide,decide-processes,cache,redis-stall,scheduler,mcp,workflow,workflow-reports,webhooks,tracing')
      .split(',')
      .map((name) => name.trim()),
  );

  const inProcess = await benchRpcEcho({ kind: 'in-process', prefix }, 'in-process', sizes);
  const rabbit = await benchRpcEcho({ kind: 'rabbitmq', url: amqp, prefix }, 'rabbitmq', sizes);
  // The echo floor's durable queue outlives its server: delete it (and anything else under the prefix).
  await deleteBrokerObjects(amqp, prefix).catch((error: unknown) => process.stdout.write(`could not delete the ${prefix} queues: ${String(error)}\n`));

  const rows = [...inProcess, ...rabbit].map((r) => ({
    transport: r.transport,
    concurrency: r.concurrency,
    calls: r.count,
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'ops/s': Math.round(r.opsPerSecond),
  }));
  process.stdout.write(`\nRPC echo round trip (the floor for later ratios)\n${formatTable(rows)}\n`);
  const ratio = (c: number) => rabbit.find((r) => r.concurrency === c)!.p50 / inProcess.find((r) => r.concurrency === c)!.p50;
  process.stdout.write(`\nrabbitmq / in-process p50: ${ratio(1).toFixed(1)}x at concurrency 1, ${ratio(64).toFixed(1)}x at 64\n`);

  // Decision core vs node-casbin on one seeded policy (10,000 requests with BENCH_QUICK=1); throws on any answer mismatch.
  if (only.has('casbin')) await benchDecisionCoreVsCasbin({ quick });

  // authz.decide over RabbitMQ (cache hit, audit on) against the RabbitMQ echo floor measured above.
  if (only.has('decide')) await benchDecisionRpc({ quick, sizes, echo: rabbit, amqpUrl: amqp, profile: profileMode() });

  // The same with each server in a process of its own, as deployed (for comparison; both still share this machine's cores).
  if (only.has('decide-processes')) await benchDecisionRpcProcesses({ sizes, amqpUrl: amqp });

  // Decision cache: miss vs hit cost in-process (in-memory adapters and Redis), memory of 100,000 entries.
  if (only.has('cache')) await benchDecisionCache({ quick });

  // Guarded reads with Redis stalled vs without Redis: p99 within 2x, every answer 200.
  if (only.has('redis-stall')) await benchRedisStall();

  // Job scheduler: due tick → owning handler start, operations and the owner in processes of their own, against the RabbitMQ echo.
  const echoAt1 = rabbit.find((r) => r.concurrency === 1);
  if (only.has('scheduler') && echoAt1) await benchScheduler({ quick, amqpUrl: amqp, echo: echoAt1 });

  // MCP gateway: tools/call get_case_by_id against the direct cases.get RPC, every server in its own process.
  if (only.has('mcp')) await benchMcp({ quick, amqpUrl: amqp, profile: profileMode() });

  // Workflow engine: task completions/s over HTTP at 16 in flight against single-row UPDATE transactions/s on the same database.
  if (only.has('workflow')) await benchWorkflow({ quick, amqpUrl: amqp, profile: profileMode() });

  // Workflow reports: each report over HTTP (QUERY) against the raw SQL aggregate of the same question, 100,000 instances × 5 tasks.
  if (only.has('workflow-reports')) await benchWorkflowReports({ quick, amqpUrl: amqp });

  // Webhooks: signed, logged deliveries/s against raw undici POSTs/s to the same receiver, servers in their own processes.
  if (only.has('webhooks')) await benchWebhooks({ quick, amqpUrl: amqp, profile: profileMode() });

  // Tracing: guarded reads with every span exported over OTLP/HTTP vs tracing off, machine time per request within +10 %.
  if (only.has('tracing')) await benchTracing({ quick, amqpUrl: amqp, profile: profileMode() });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

/**
 * A bench server in a process of its own, as services run when deployed (one process each),
 * started through `bench-processes.ts` with an IPC channel:
 * - `BENCH_SERVER=decision`: the platform runtime on the production profile from the environment
 *   (DATABASE_URL, AMQP_URL, AMQP_PREFIX, REDIS_URL, REDIS_KEY_PREFIX, DATA_DIR) with
 *   policy-management (owner of the `authz` tables, seeded with the bench policy), authz-decision
 *   and the echo as a platform service (`platformEchoService`);
 * - `BENCH_SERVER=echo`: the RPC floor's echo server on AMQP_URL under AMQP_PREFIX;
 * - `BENCH_SERVER=operations`: the operations service (the job scheduler) on the same profile;
 * - `BENCH_SERVER=cases`: case-management on the same profile;
 * - `BENCH_SERVER=mcp-gateway`: the MCP gateway on the same profile, verifying tokens with the
 *   JWT_SECRET / JWT_ISSUER / JWT_AUDIENCE the bench gives (it signs the client's tokens), behind
 *   the platform's HTTP server on an ephemeral port of 127.0.0.1, reported as `{ ready: true, port }`;
 * - `BENCH_SERVER=workflow-engine`: the workflow engine on the same profile, listening on HTTP as the
 *   mcp-gateway does (tokens checked with the JWT settings the bench gives).
 * - `BENCH_SERVER=webhook-dispatcher`: the webhook dispatcher on the same profile, listening on HTTP
 *   as the mcp-gateway does;
 * - `BENCH_SERVER=webhook-receiver`: a plain `node:http` receiver answering every POST 204 after
 *   reading its body, on an ephemeral port reported like the others;
 * - `BENCH_SERVER=otlp-receiver`: the same answering 200 `{}` (an OTLP/HTTP collector's success);
 * - `BENCH_SERVER=guarded-read`: policy-management and authz-decision on the same profile, listening
 *   on HTTP as the mcp-gateway does (tokens checked with the JWT settings the bench gives); traced
 *   when the bench sets OTEL_EXPORTER_OTLP_ENDPOINT.
 * Sends `{ ready: true }` once serving, and shuts down on `{ stop: true }` or SIGTERM.
 * `{ profile: 'start' }` starts a V8 sampling profile of this process (answered `{ profiling: true }`);
 * `{ profile: 'stop', calls }` ends it and answers `{ profile }`, its summary per call with the maps
 * as entry lists (IPC carries JSON).
 */
// First, as in every service's main: with OTEL_EXPORTER_OTLP_ENDPOINT set (the tracing bench), the
// SDK must be in place before the modules it instruments load; unset, it does nothing.
import '@lp/platform/observability/tracing';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AddressInfo } from 'node:net';
import { createHttpServer, createServiceApp, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { caseManagementService } from '@lp/service/case-management';
import { mcpGatewayService } from '@lp/service/mcp-gateway';
import { authzDecisionService } from '@lp/service/authz-decision';
import { operationsService } from '@lp/service/operations';
import { policyManagementService } from '@lp/service/policy-management';
import { workflowEngineService } from '@lp/service/workflow-engine';
import { webhookDispatcherService } from '@lp/service/webhook-dispatcher';
import { createServer as createPlainServer } from 'node:http';
import { seedBenchPolicy } from './decision-bench-stack';
import { platformEchoService, startEchoServer } from './echo-server';
import { RunningCpuProfile, startCpuProfile } from './cpu-profile';

/** What `start` reports beside `ready` (the HTTP port of a server that listens). */
let readyInfo: { port?: number } = {};

async function start(): Promise<() => Promise<void>> {
  const env = process.env;
  if (env.BENCH_SERVER === 'cases') {
    const runtime = await startPlatformRuntime('bench-cases', { ...env, JWT_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' });
    const cases = await createServiceApp(caseManagementService, runtime);
    return async () => {
      await cases.app.close();
      await runtime.close();
    };
  }
  if (env.BENCH_SERVER === 'webhook-receiver' || env.BENCH_SERVER === 'otlp-receiver') {
    const otlp = env.BENCH_SERVER === 'otlp-receiver';
    const receiver = createPlainServer((req, res) => {
      req.resume();
      req.on('end', () => (otlp ? res.writeHead(200, { 'content-type': 'application/json' }).end('{}') : res.writeHead(204).end()));
    });
    receiver.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    readyInfo = { port: (receiver.address() as AddressInfo).port };
    return () => new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
  if (env.BENCH_SERVER === 'mcp-gateway' || env.BENCH_SERVER === 'workflow-engine' || env.BENCH_SERVER === 'webhook-dispatcher') {
    const kind = env.BENCH_SERVER;
    if (!env.JWT_SECRET) throw new Error(`the ${kind} bench server needs the JWT_SECRET the bench signs with`);
    const runtime = await startPlatformRuntime(`bench-${kind}`, { ...env, LOG_LEVEL: 'silent' });
    const service = await createServiceApp(
      kind === 'mcp-gateway' ? mcpGatewayService : kind === 'webhook-dispatcher' ? webhookDispatcherService : workflowEngineService,
      runtime,
    );
    const server = createHttpServer(service.http);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    readyInfo = { port: (server.address() as AddressInfo).port };
    return async () => {
      await server.drain(1000);
      await service.app.close();
      await runtime.close();
    };
  }
  if (env.BENCH_SERVER === 'guarded-read') {
    if (!env.JWT_SECRET) throw new Error('the guarded-read bench server needs the JWT_SECRET the bench signs with');
    const runtime = await startPlatformRuntime('bench-guarded-read', { ...env, LOG_LEVEL: 'silent' });
    const apps = [await createServiceApp(policyManagementService, runtime), await createServiceApp(authzDecisionService, runtime)];
    const server = createHttpServer(apps[0]!.http);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    readyInfo = { port: (server.address() as AddressInfo).port };
    return async () => {
      await server.drain(1000);
      for (const { app } of apps.reverse()) await app.close();
      await runtime.close();
    };
  }
  if (env.BENCH_SERVER === 'echo') {
    const echo = await startEchoServer({ kind: 'rabbitmq', url: env.AMQP_URL as string, prefix: env.AMQP_PREFIX as string });
    return () => echo.close();
  }
  if (env.BENCH_SERVER === 'operations') {
    // The scheduler as deployed: its own process, the same secret-free production profile.
    const runtime = await startPlatformRuntime('bench-operations', { ...env, JWT_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' });
    const operations = await createServiceApp(operationsService, runtime);
    return async () => {
      await operations.app.close();
      await runtime.close();
    };
  }
  if (env.BENCH_SERVER !== 'decision')
    throw new Error(
      `BENCH_SERVER must be decision, echo, operations, cases, mcp-gateway, workflow-engine, webhook-dispatcher, webhook-receiver, otlp-receiver or guarded-read, got ${env.BENCH_SERVER}`,
    );
  const runtime = await startPlatformRuntime('bench-decision', { ...env, JWT_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' });
  const apps: ServiceApp[] = [];
  apps.push(await createServiceApp(policyManagementService, runtime));
  apps.push(await createServiceApp(authzDecisionService, runtime));
  apps.push(await createServiceApp(platformEchoService, runtime));
  await seedBenchPolicy(apps[0]!.app.get(DataSource));
  return async () => {
    for (const { app } of apps.reverse()) await app.close();
    await runtime.close();
  };
}

start().then(
  (stop) => {
    let stopping: Promise<void> | undefined;
    const shutdown = () => {
      stopping ??= stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`bench server stop failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
    };
    let profiling: RunningCpuProfile | undefined;
    const profile = async (message: { profile: 'start' | 'stop'; calls?: number }) => {
      if (message.profile === 'start') {
        profiling = await startCpuProfile();
        process.send?.({ profiling: true });
        return;
      }
      const summary = await profiling!.stop(message.calls ?? 1);
      profiling = undefined;
      process.send?.({ profile: { ...summary, byGroup: [...summary.byGroup], byFunction: [...summary.byFunction] } });
    };
    process.on('message', (message: { stop?: boolean; profile?: 'start' | 'stop'; calls?: number }) => {
      if (message?.stop) shutdown();
      else if (message?.profile) {
        profile(message as { profile: 'start' | 'stop'; calls?: number }).catch((error: unknown) => process.send?.({ profileError: String(error) }));
      }
    });
    process.on('SIGTERM', shutdown);
    process.send?.({ ready: true, ...readyInfo });
  },
  (error: unknown) => {
    process.stderr.write(`bench server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

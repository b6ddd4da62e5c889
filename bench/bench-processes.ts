/**
 * The bench's server processes (`bench-server.process.ts`), each forked with an IPC channel and
 * answered `{ ready: true }` once serving: the fleet's services run in processes of their own, as
 * deployed, while the bench client measures from this one.
 */
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { CpuProfileSummary } from './cpu-profile';
import { measure } from './latency-stats';

/**
 * `decision`: policy-management + authz-decision (+ the platform echo); `echo`: the RPC floor;
 * `operations`, `cases` (case-management), `mcp-gateway` and `workflow-engine` (both listening on
 * HTTP): one service each; `guarded-read`: policy-management + authz-decision listening on HTTP;
 * `webhook-receiver` and `otlp-receiver`: plain HTTP sinks.
 */
export type BenchServerKind =
  | 'decision'
  | 'echo'
  | 'operations'
  | 'cases'
  | 'mcp-gateway'
  | 'workflow-engine'
  | 'webhook-dispatcher'
  | 'webhook-receiver'
  | 'otlp-receiver'
  | 'guarded-read';

const START_TIMEOUT_MS = 90_000;

/** Starts a bench server process and waits for its `ready`. */
export async function startServer(kind: BenchServerKind, env: Record<string, string>): Promise<ChildProcess> {
  return (await startListeningServer(kind, env)).child;
}

/** As `startServer`, with what the server reported beside `ready` (the HTTP port of one that listens). */
export function startListeningServer(kind: BenchServerKind, env: Record<string, string>): Promise<{ child: ChildProcess; port?: number }> {
  // fork() reuses this process's execArgv: the same SWC loader, so the child runs the TypeScript as this one does.
  const child = fork(join(__dirname, 'bench-server.process.ts'), [], {
    env: { ...process.env, ...env, BENCH_SERVER: kind },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.once('message', (message: { ready?: boolean; port?: number }) => {
      clearTimeout(timer);
      if (message?.ready) resolve({ child, port: message.port });
      else reject(new Error(`${kind} server sent ${JSON.stringify(message)}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} server exited with ${code} before it was ready`));
    });
  });
}

/** Asks the server to stop (the decision app drains its audit on the way), then makes sure it is gone. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send({ stop: true });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Teardown steps that must all be tried: each failure is collected (`problems`) instead of
 * stopping the rest, so one stuck server never leaves a database or queues behind.
 */
export function teardownSteps(): { attempt(what: string, step: () => Promise<unknown>): Promise<void>; problems: string[] } {
  const problems: string[] = [];
  return {
    problems,
    async attempt(what, step) {
      try {
        await step();
      } catch (error) {
        problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/** Sends `message` to a bench server and waits for its answer carrying `key`. */
function askServer<T>(child: ChildProcess, message: object, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: Record<string, unknown>) => {
      if (answer?.profileError) reject(new Error(String(answer.profileError)));
      else if (answer && key in answer) resolve(answer[key] as T);
      else return;
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** `calls` runs of `call` (at `concurrency`, default 64) under a V8 profile of the server process answering them. */
export function profileServer(child: ChildProcess, calls: number, call: () => Promise<unknown>, concurrency = 64): Promise<CpuProfileSummary> {
  return profileServerWhile(child, calls, () => measure(call, { total: calls, concurrency, warmup: 0 }));
}

/** A V8 profile of the server process while `work` runs, summarized per unit of work (`units`). */
export async function profileServerWhile(child: ChildProcess, units: number, work: () => Promise<unknown>): Promise<CpuProfileSummary> {
  await askServer(child, { profile: 'start' }, 'profiling');
  await work();
  const summary = await askServer<CpuProfileSummary & { byGroup: Array<[string, number]>; byFunction: Array<[string, number]> }>(
    child,
    { profile: 'stop', calls: units },
    'profile',
  );
  return { ...summary, byGroup: new Map(summary.byGroup), byFunction: new Map(summary.byFunction) };
}

/**
 * The production-profile environment of one bench run's server processes: its own database, queue
 * prefix (`{id}.`), key prefix (`{id}:`) and data directory, so runs never share names and the
 * teardown knows what to delete.
 */
export function benchRunEnv(id: string, urls: { database: string; amqp: string; redis: string }, dataDir: string): Record<string, string> {
  return { DATABASE_URL: urls.database, AMQP_URL: urls.amqp, AMQP_PREFIX: `${id}.`, REDIS_URL: urls.redis, REDIS_KEY_PREFIX: `${id}:`, DATA_DIR: dataDir };
}

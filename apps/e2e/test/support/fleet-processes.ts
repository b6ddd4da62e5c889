import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { SEEDED_ADMIN_SUBJECT, SEEDED_TENANT, FLEET_SERVICE_NAMES } from '@lp/contracts';
import { AccessTokenSubject, signAccessToken } from '@lp/platform/auth';
import { createTestDatabase, deleteTestRunResources, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { fleetConsole, fleetServices } from '@lp/fleet';
import { MessagingNames } from '@lp/platform/messaging';

/** The repository root (where `tools/run.mjs` lives). */
const root = resolve(__dirname, '../../../..');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
const JWT = { issuer: 'fleet-test', audience: 'fleet-test-api' };

/** One running service process of the fleet. */
export interface FleetProcess {
  service: string;
  instance: number;
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr), for a failure message. */
  output(): string;
}

export interface FleetProcessesOptions {
  /** Settings every process gets on top of the run's own (database, prefixes, secrets). */
  env?: Record<string, string>;
  /** Instances per service (default 1 each). */
  instances?: Record<string, number>;
  /** Per service, settings that replace the shared ones (e.g. its AMQP_URL through an outage proxy). */
  serviceEnv?: Record<string, Record<string, string>>;
  /**
   * `host:port` every process reaches a server at instead of its own address (e.g. a
   * `TcpOutageProxy`'s `url`, to play an outage of that server): the processes' DATABASE_URL,
   * AMQP_URL or REDIS_URL keep their credentials, database and path. `sql` stays direct.
   */
  through?: Partial<Record<'postgres' | 'rabbitmq' | 'redis', string>>;
  /** Also start the admin console's app (`apps/console`) beside the services, as `start:fleet` and the deploys do. */
  console?: boolean;
}

/** The admin console's app of the fleet (apps/console/src/main.ts): not a service definition, it holds no data. */
export const CONSOLE_APP = fleetConsole.name;

/** What the console is never given: it serves files and talks to no database, broker or cache, and signs nothing. */
const NOT_FOR_THE_CONSOLE = ['DATABASE_URL', 'AMQP_URL', 'AMQP_PREFIX', 'REDIS_URL', 'REDIS_KEY_PREFIX', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY'];

/** `url` with its host and port replaced by `address` (`host:port`), when given. */
function via(url: string, address: string | undefined): string {
  if (!address) return url;
  const rewritten = new URL(url);
  rewritten.host = address;
  return rewritten.toString();
}

/**
 * The fleet as deployed: every service of `@lp/fleet` in a process of its own (`node tools/run.mjs
 * apps/<service>/src/main.ts`, exactly what `npm run start:fleet` and the image run), on PostgreSQL,
 * RabbitMQ and Redis, in a database, queue prefix and key prefix of this run's own, deleted by
 * `stop()`. Each process listens on an ephemeral port it reports in its `ready:` line. With `console:
 * true` the admin console's app runs too (`apps/console`, without any connection URL or secret; build
 * it first with `node tools/build-console.mjs`, else it answers 503). Use inside
 * `describeWithServers(['postgres', 'rabbitmq', 'redis'], ...)`:
 *
 *   const fleet = new FleetProcesses('fleet-e2e', { instances: { 'authz-decision': 2 } });
 *   beforeAll(() => fleet.start(), 180_000);
 *   afterAll(() => fleet.stop());
 *   await fetch(`${fleet.url('case-management')}/api/cases`, { headers: fleet.auth() });
 */
export class FleetProcesses {
  readonly id: string;
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly webhookKey = randomBytes(32).toString('base64');
  private readonly dataDir: string;
  private db?: TestDatabase;
  private pool?: Pool;
  readonly processes: FleetProcess[] = [];

  constructor(
    name: string,
    private readonly options: FleetProcessesOptions = {},
  ) {
    this.id = testRunId(name);
    this.dataDir = mkdtempSync(join(tmpdir(), `${this.id}-`));
  }

  /** The environment of every process of this run (before `options.serviceEnv`). */
  get env(): Record<string, string> {
    if (!this.db) throw new Error('the fleet is not started');
    return {
      NODE_ENV: 'development',
      DATABASE_URL: via(this.db.url, this.options.through?.postgres),
      AMQP_URL: via(testServerUrls.rabbitmq, this.options.through?.rabbitmq),
      AMQP_PREFIX: `${this.id}.`,
      REDIS_URL: via(testServerUrls.redis, this.options.through?.redis),
      REDIS_KEY_PREFIX: `${this.id}:`,
      JWT_SECRET: this.secret,
      JWT_ISSUER: JWT.issuer,
      JWT_AUDIENCE: JWT.audience,
      WEBHOOK_SECRET_KEY: this.webhookKey,
      DATA_DIR: this.dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ...this.options.env,
    };
  }

  /** Starts policy-management first (it migrates and seeds the `authz` schema the others read), then the rest together. */
  async start(): Promise<this> {
    this.db = await createTestDatabase(testServerUrls.postgres, this.id);
    const [first, ...rest] = fleetServices.map((s) => s.name);
    if (!first) throw new Error('the fleet list is empty');
    await this.startService(first);
    await Promise.all([
      ...rest.flatMap((service) => Array.from({ length: this.options.instances?.[service] ?? 1 }, () => this.startService(service))),
      ...(this.options.console ? [this.startConsole()] : []),
    ]);
    return this;
  }

  /** Starts one more process of `service` (another instance, or again after `kill`). */
  startService(service: string): Promise<FleetProcess> {
    return this.spawnApp(service, { ...process.env, ...this.env, ...this.options.serviceEnv?.[service] });
  }

  /**
   * Starts one more process of the console's app, as deployed: the run's settings without any
   * connection URL or secret (`env` on top, e.g. another CONSOLE_DIR).
   */
  startConsole(env: Record<string, string> = {}): Promise<FleetProcess> {
    const settings: NodeJS.ProcessEnv = { ...process.env, ...this.env, ...this.options.serviceEnv?.[CONSOLE_APP], ...env };
    for (const key of NOT_FOR_THE_CONSOLE) delete settings[key];
    return this.spawnApp(CONSOLE_APP, settings);
  }

  private async spawnApp(service: string, env: NodeJS.ProcessEnv): Promise<FleetProcess> {
    const instance = this.processes.filter((p) => p.service === service).length;
    const child = spawn(process.execPath, [join(root, 'tools/run.mjs'), `apps/${service}/src/main.ts`], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: tools/run.mjs starts the service as a child of its own, so a SIGKILL
      // must reach the group (the wrapper cannot forward it), or the service lives on as an orphan.
      detached: true,
    });
    let out = '';
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`${service} not ready within ${START_TIMEOUT_MS} ms:\n${out.slice(-4000)}`)), START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /ready: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolveUrl(ready[1]);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${service} exited (${code ?? signal}) before it was ready:\n${out.slice(-4000)}`));
      });
    });
    // Keep reading, so a chatty process never blocks on a full pipe.
    const started: FleetProcess = { service, instance, child, url, output: () => out };
    this.processes.push(started);
    return started;
  }

  /** The first running process of `service` (or instance `instance`). */
  process(service: string, instance = 0): FleetProcess {
    const found = this.processes.filter((p) => p.service === service && p.child.exitCode === null && p.child.signalCode === null)[instance];
    if (!found) throw new Error(`no running instance ${instance} of ${service}`);
    return found;
  }

  url(service: string, instance = 0): string {
    return this.process(service, instance).url;
  }

  /** A token for `sub` of `tenantId` (default the seeded admin of tenant `default`). */
  token(subject: Partial<AccessTokenSubject> = {}): string {
    const claims = { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT, ...subject } as AccessTokenSubject;
    return signAccessToken(claims, { secret: this.secret, issuer: JWT.issuer, audience: JWT.audience });
  }

  /** Headers of a JSON request with a bearer token. */
  auth(subject: Partial<AccessTokenSubject> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.token(subject)}`, 'Content-Type': 'application/json' };
  }

  /** The run's database, for assertions (every service's schema is in it). */
  get sql(): Pool {
    if (!this.db) throw new Error('the fleet is not started');
    if (!this.pool) {
      this.pool = new Pool({ connectionString: this.db.url, max: 2 });
      // An idle client's connection can end under it: the database dropped WITH (FORCE) at teardown
      // while the client is still closing (57P01). The next query gets a fresh client; an unhandled
      // 'error' event would instead fail whichever test runs at that moment.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  /** Stops a process: SIGTERM (graceful, as Kubernetes does) or SIGKILL (a crash). Resolves once it is gone. */
  async kill(target: FleetProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const { child } = target;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    // SIGTERM goes to the wrapper, which forwards it; SIGKILL to the whole group (wrapper and service).
    const killGroup = () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // the group is gone already
      }
    };
    if (signal === 'SIGKILL') killGroup();
    else child.kill(signal);
    const timer = setTimeout(killGroup, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Stops every process, drops the database and deletes the run's queues, exchanges and keys. */
  async stop(): Promise<void> {
    await Promise.all([...this.processes].reverse().map((p) => this.kill(p)));
    await this.pool?.end();
    await this.db?.drop();
    await deleteTestRunResources({
      amqp: `${this.id}.`,
      redis: `${this.id}:`,
      brokerObjects: new MessagingNames(`${this.id}.`).durableObjects(FLEET_SERVICE_NAMES),
    });
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export interface Answer {
  status: number;
  body: unknown;
}

/** One HTTP call, bounded: a hung request is a failure (status 0), never a hung test. */
export async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}, timeoutMs = 8_000): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body };
  } catch {
    return { status: 0, body: null };
  }
}

/**
 * `npm run start:fleet`: each service as its own process against PostgreSQL, RabbitMQ and Redis
 * (127.0.0.1 defaults, overridable by DATABASE_URL, AMQP_URL, REDIS_URL), and the admin console as
 * its own small app on the next port (`apps/console`: static files and health routes, no data tier).
 * Ports start at PORT (default 3000) in the standalone's order, the console last. Tokens from
 * `npm run -s token` work: the fleet is given the same signing secret (JWT_SECRET, or the one kept
 * under DATA_DIR).
 *
 * A supervisor, as Kubernetes is in production: a process that crashes is restarted with backoff,
 * one that exits cleanly (code 0) at once, and the others keep running; Ctrl-C or SIGTERM stops them
 * all. Type `restart <service>` (or `restart all`) and Enter to restart one by hand, `status` to see
 * the port map again.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { CONSOLE_PREFIX, ensureSigningSecret, FleetSupervisor, platformConfig, preparePrivateDataDir, StartupError } from '@lp/platform/runtime';
import { fleetConsole, fleetServices } from '@lp/fleet';

/** The console's app (apps/console/src/main.ts): not a ServiceDefinition, it has no schema, queue or cache. */
const CONSOLE = fleetConsole.name;
const root = resolve(__dirname, '..');
const config = platformConfig.load();
const dataDir = resolve(config.DATA_DIR);
// Checked here once, not by seven children crashing in a loop on a DATA_DIR others can write.
try {
  preparePrivateDataDir(dataDir);
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  process.stderr.write(`[fleet] ${error.message}\n`);
  process.exit(1);
}
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: config.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  AMQP_URL: config.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: config.REDIS_URL ?? 'redis://127.0.0.1:6379',
  JWT_SECRET: config.JWT_JWKS_URI ? undefined : (config.JWT_SECRET ?? ensureSigningSecret(dataDir)),
};
// The console gets no connection URL and no secret: it serves files and calls nothing.
const consoleEnv: NodeJS.ProcessEnv = { ...env };
for (const key of ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'JWT_SECRET']) delete consoleEnv[key];

// The same list the standalone hosts: a service added there joins the fleet too (apps/<name>/src/main.ts).
// The console comes last, on the port after the services'.
const apps = [...fleetServices.map((s) => s.name), CONSOLE];
const portOf = (index: number) => config.PORT + index;

const supervisor = new FleetSupervisor(
  apps.map((app, index) => ({
    name: app,
    spawn: () =>
      spawn(process.execPath, [resolve(root, 'tools/run.mjs'), `apps/${app}/src/main.ts`], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...(app === CONSOLE ? consoleEnv : env), PORT: String(portOf(index)) },
      }),
  })),
);

const portMap = () =>
  apps.map((app, index) => `  ${app.padEnd(20)} http://127.0.0.1:${portOf(index)}${app === CONSOLE ? `${CONSOLE_PREFIX}/` : ''}`).join('\n');
process.stdout.write(`[fleet] starting ${fleetServices.length} services and the console:\n${portMap()}\n[fleet] commands: restart <service>|all, status\n`);
supervisor.start();

// The console answers /health/ready 503 until dist/console exists, then serves it without a restart:
// build it beside the running fleet (nothing to do when the build is current, as `npm start` does).
spawn(process.execPath, [resolve(root, 'tools/build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] }).once('exit', (code) => {
  if (code !== 0) process.stdout.write(`[fleet] the console build failed (exit ${code}): ${CONSOLE_PREFIX} answers 503 until npm run build:console\n`);
});

const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  const [command, target] = line.trim().split(/\s+/);
  if (command === 'status') process.stdout.write(`${portMap()}\n`);
  else if (command === 'restart' && target === 'all') apps.forEach((a) => supervisor.restart(a));
  else if (command === 'restart' && target && supervisor.restart(target)) return;
  else if (command) process.stdout.write(`[fleet] unknown command "${line.trim()}"; try: restart <${apps.join('|')}|all>, status\n`);
});

let stopping = false;
const stopAll = () => {
  if (stopping) process.exit(1); // a second Ctrl-C does not wait
  stopping = true;
  commands.close();
  void supervisor.stop().then(() => process.exit(0));
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

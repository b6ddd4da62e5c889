/**
 * `npm run start:fleet`: each service as its own process against PostgreSQL, RabbitMQ and Redis
 * (127.0.0.1 defaults, overridable by DATABASE_URL, AMQP_URL, REDIS_URL). Ports start at PORT
 * (default 3000) in the standalone's order. Tokens from `npm run -s token` work: the fleet is given the
 * same signing secret (JWT_SECRET, or the one kept under DATA_DIR).
 *
 * A supervisor, as Kubernetes is in production: a service that exits is restarted with backoff and
 * the others keep running; Ctrl-C or SIGTERM stops them all. Type `restart <service>` (or
 * `restart all`) and Enter to restart one by hand, `status` to see the port map again.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureSigningSecret, FleetSupervisor, platformConfig } from '@lp/platform/runtime';
import { fleetServices } from '@lp/fleet';

// The same list the standalone hosts: a service added there joins the fleet too (apps/<name>/src/main.ts).
const services = fleetServices.map((s) => s.name);
const root = resolve(__dirname, '..');
const config = platformConfig.load();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: config.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  AMQP_URL: config.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: config.REDIS_URL ?? 'redis://127.0.0.1:6379',
  JWT_SECRET: config.JWT_JWKS_URI ? undefined : (config.JWT_SECRET ?? ensureSigningSecret(resolve(config.DATA_DIR))),
};
const portOf = (index: number) => config.PORT + index;

const supervisor = new FleetSupervisor(
  services.map((service, index) => ({
    name: service,
    spawn: () =>
      spawn(process.execPath, [resolve(root, 'tools/run.mjs'), `apps/${service}/src/main.ts`], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...env, PORT: String(portOf(index)) },
      }),
  })),
);

const portMap = () => services.map((service, index) => `  ${service.padEnd(20)} http://127.0.0.1:${portOf(index)}`).join('\n');
process.stdout.write(`[fleet] starting ${services.length} services:\n${portMap()}\n[fleet] commands: restart <service>|all, status\n`);
supervisor.start();

const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  const [command, target] = line.trim().split(/\s+/);
  if (command === 'status') process.stdout.write(`${portMap()}\n`);
  else if (command === 'restart' && target === 'all') services.forEach((s) => supervisor.restart(s));
  else if (command === 'restart' && target && supervisor.restart(target)) return;
  else if (command) process.stdout.write(`[fleet] unknown command "${line.trim()}"; try: restart <${services.join('|')}|all>, status\n`);
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

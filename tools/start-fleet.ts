/**
 * `npm run start:fleet`: each service as its own process against PostgreSQL, RabbitMQ and Redis
 * (127.0.0.1 defaults, overridable by DATABASE_URL, AMQP_URL, REDIS_URL). Ports start at PORT
 * (default 3000) in the standalone's order. Tokens from `npm run -s token` work: the fleet is given the
 * same signing secret (JWT_SECRET, or the one kept under DATA_DIR).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ensureSigningSecret, platformConfig } from '@lp/platform/runtime';
import { standaloneServices } from '../apps/standalone/src/services';

// The same list the standalone hosts: a service added there joins the fleet too (apps/<name>/src/main.ts).
const services = standaloneServices.map((s) => s.name);
const root = resolve(__dirname, '..');
const config = platformConfig.load();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: config.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  AMQP_URL: config.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: config.REDIS_URL ?? 'redis://127.0.0.1:6379',
  JWT_SECRET: config.JWT_JWKS_URI ? undefined : (config.JWT_SECRET ?? ensureSigningSecret(resolve(config.DATA_DIR))),
};

const children: ChildProcess[] = services.map((service, index) =>
  spawn(process.execPath, [resolve(root, 'tools/run.mjs'), `apps/${service}/src/main.ts`], {
    stdio: 'inherit',
    env: { ...env, PORT: String(config.PORT + index) },
  }),
);

let stopping = false;
function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10_000).unref();
}
for (const child of children) child.on('exit', (code) => (stopping ? undefined : stopAll(code ?? 1)));
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

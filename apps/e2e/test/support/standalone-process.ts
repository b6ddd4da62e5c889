import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root, where `npm start` runs. */
export const root = resolve(__dirname, '../../../..');

export interface Started {
  child: ChildProcess;
  baseUrl: string;
  adminToken: string;
  readyAt: number;
  output: () => string;
}

/** npm itself, as an operator runs it: the one npm running this test, else the one on PATH. */
const npmExecPath = process.env.npm_execpath;
const npm: [string, ...string[]] = npmExecPath?.endsWith('.js') ? [process.execPath, npmExecPath] : ['npm'];

/**
 * `npm start`, with npm's own process in front: a signal to it has to reach the platform. `env`
 * overrides the fixed environment; with `JWT_JWKS_URI` set the platform prints no admin token (it
 * signs none) and `adminToken` is empty.
 */
export function start(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const expectsAdminToken = !env.JWT_JWKS_URI;
  const child = spawn(npm[0], [...npm.slice(1), 'start'], {
    cwd: root,
    // USER_POLICY_LIMIT raised so the concurrency test measures the database, not the write limit.
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      AMQP_URL: '',
      REDIS_URL: '',
      JWT_SECRET: '',
      USER_POLICY_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    // A platform that never gets ready is stopped, not left running: the caller has nothing to stop.
    // 120 s: a first start compiles the whole tree (SWC), which takes over 60 s on a loaded 2-core machine.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`no ready line within 120 s:\n${out}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const [, baseUrl] = /ready: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out) ?? [];
      const [, adminToken] = /admin token[^\n]*\n(\S+)\n/.exec(out) ?? (expectsAdminToken ? [] : [undefined, '']);
      if (baseUrl !== undefined && adminToken !== undefined) {
        clearTimeout(timer);
        resolvePromise({ child, baseUrl, adminToken, readyAt: Date.now(), output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`standalone exited with ${code} before ready:\n${out}`));
    });
  });
}

export function stop(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    started.child.once('exit', () => r());
    started.child.kill('SIGTERM');
  });
}

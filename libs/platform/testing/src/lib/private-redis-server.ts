import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether `redis-server` can be started here (the Debian package `redis-server`). */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `describe` for a suite that starts its own Redis (`PrivateRedisServer`). Without `redis-server`
 * on PATH it is skipped with a visible notice, except under CI=true, where it fails.
 */
export function describeWithPrivateRedis(name: string, fn: () => void): void {
  if (redisServerInstalled()) {
    describe(name, fn);
    return;
  }
  if (process.env.CI === 'true') throw new Error(`CI=true but redis-server is not on PATH for suite "${name}"`);
  console.warn(`SKIPPED "${name}": redis-server is not on PATH`);
  describe.skip(name, fn);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether a Redis on `port` answers PING now. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * A Redis server of the test's own, on a free port, that the test can kill and start again on the
 * same port: a real restart (the dataset lost, every connection dropped) without touching the
 * shared server. No persistence is configured (`--save "" --appendonly no`), but its working
 * directory (a temporary one, kept across restarts, removed by `stop`) holds whatever the test
 * writes with `SAVE`, and a restart loads it, as a server restored from an older snapshot does.
 */
export class PrivateRedisServer {
  private child?: ChildProcess;
  private port = 0;
  private dir?: string;
  private stderr = '';

  get url(): string {
    if (!this.port) throw new Error('PrivateRedisServer not started');
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (on the port of the previous start, if any) and resolves once it answers PING (bounded). */
  async start(timeoutMs = 10_000): Promise<void> {
    if (this.child) throw new Error('PrivateRedisServer already running');
    this.port ||= await freePort();
    this.dir ??= mkdtempSync(join(tmpdir(), 'lp-redis-'));
    this.stderr = '';
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', this.dir];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child = child;
    const deadline = Date.now() + timeoutMs;
    while (!(await answersPing(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await this.kill();
        throw new Error(`redis-server on port ${this.port} did not answer PING within ${timeoutMs} ms: ${this.stderr.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** SIGKILL, as a crash: nothing is saved; every connection drops. Resolves once the process has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** Kills the server and starts a new one on the same port; resolves once it answers PING. */
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /** Kills the server and removes its directory. */
  async stop(): Promise<void> {
    await this.kill();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

import { ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');
const ROUNDS = 10;
const CLIENTS = 16;

interface Target {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
}

/** Starts drain-target.process.ts (the platform's HTTP server and SIGTERM path) and waits for its ready line. */
function startTarget(): Promise<Target> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', resolve(__dirname, 'drain-target.process.ts')], {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: resolve(root, 'tsconfig.base.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let out = '';
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`no ready line within 45 s:\n${out}`));
    }, 45_000);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /ready: http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        ready({ child, port: Number(port), exited });
      }
    });
  });
}

type Outcome = { status: number; headers: Record<string, string | string[] | undefined>; body: string } | { error: string };

function send(agent: Agent, port: number, method: 'GET' | 'POST', path: string): Promise<Outcome> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end(method === 'POST' ? '{"a":1}' : undefined);
  });
}

/**
 * One round: 16 clients, each on its own kept-alive connection, send GETs and POSTs back to back;
 * once every client has reused its connection, the process gets SIGTERM. Every request must be
 * answered (200, or 503 with Connection: close) until the listener is gone (ECONNREFUSED on a new
 * connection); a reset or hang-up on an accepted connection is the defect.
 */
async function round(target: Target) {
  let terminated = false;
  const answered = new Array<number>(CLIENTS).fill(0);
  const failures: string[] = [];
  const refusals: Outcome[] = [];
  let sentAfterSignal = 0;
  const client = async (index: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; ; n++) {
        const afterSignal = terminated;
        const outcome = await send(agent, target.port, n % 2 ? 'POST' : 'GET', `/client/${index}/${n}`);
        if (afterSignal) sentAfterSignal++;
        if ('error' in outcome) {
          if (outcome.error !== 'ECONNREFUSED') failures.push(`client ${index} request ${n}: ${outcome.error}`);
          return;
        }
        answered[index] = (answered[index] ?? 0) + 1;
        if (outcome.status === 503) refusals.push(outcome);
        else if (outcome.status !== 200) failures.push(`client ${index} request ${n}: status ${outcome.status}`);
      }
    } finally {
      agent.destroy();
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
  for (let waited = 0; answered.some((n) => n < 3); waited += 10) {
    if (waited > 10_000) throw new Error(`clients did not get going: ${answered.join(',')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  terminated = true;
  target.child.kill('SIGTERM');
  await Promise.all(clients);
  return { failures, refusals, sentAfterSignal, exitCode: await target.exited };
}

describe('SIGTERM with keep-alive clients sending (a real process)', () => {
  const children: ChildProcess[] = [];
  /** A few processes start ahead while a round runs: a process start costs far more than a round. */
  const LOOKAHEAD = 3;
  const startTracked = () => {
    const started = startTarget();
    void started.then(({ child }) => children.push(child)).catch(() => undefined);
    return started;
  };

  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it(`answers every request that reaches the process during the drain, over ${ROUNDS} rounds of ${CLIENTS} keep-alive clients: 0 resets`, async () => {
    const starting = Array.from({ length: LOOKAHEAD }, startTracked);
    const results = [];
    for (let i = 0; i < ROUNDS; i++) {
      const target = await starting[i];
      if (starting.length < ROUNDS) starting.push(startTracked());
      results.push(await round(target as Target));
    }

    expect(results.flatMap((r) => r.failures)).toEqual([]);
    expect(results.map((r) => r.exitCode)).toEqual(new Array(ROUNDS).fill(0));
    // The signal landed while the clients were sending: each of them sent at least once after it.
    for (const r of results) expect(r.sentAfterSignal).toBeGreaterThanOrEqual(CLIENTS);
    for (const refusal of results.flatMap((r) => r.refusals)) {
      if ('error' in refusal) continue;
      expect(refusal.headers).toMatchObject({ connection: 'close', 'retry-after': '1', 'content-type': 'application/problem+json' });
      expect(JSON.parse(refusal.body)).toMatchObject({ status: 503, code: 'ServiceUnavailable' });
    }
  }, 120_000);
});

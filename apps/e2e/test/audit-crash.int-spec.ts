import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { signAccessToken } from '@lp/platform/auth';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';

const root = resolve(__dirname, '../../..');

interface Child {
  process: ChildProcess;
  port: number;
}

/** The decision service in its own process (support/decision-process.ts), on the given database and spool. */
function startChild(env: NodeJS.ProcessEnv): Promise<Child> {
  // Node itself (not tools/run.mjs, which would put a parent in front): SIGKILL must hit the server.
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'apps/e2e/test/support/decision-process.ts')], {
    cwd: root,
    env: { ...process.env, ...env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`decision process not listening within 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /listening (\d+)/.exec(out);
      if (listening) {
        clearTimeout(timer);
        resolvePromise({ process: child, port: Number(listening[1]) });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`decision process exited with ${code}:\n${out}`));
    });
  });
}

/**
 * AUDIT_DURABILITY=strict: an answered decision has its audit record on disk before the answer
 * leaves, so kill -9 under load loses none. The child is killed while decisions are in flight,
 * with a flush interval long enough that the records are in its journal only; the next start
 * replays the journal into the table.
 */
describeWithServers(['postgres'], 'strict audit durability survives kill -9', () => {
  const secret = randomBytes(32).toString('base64url');
  const spoolDir = mkdtempSync(join(tmpdir(), 'lp-audit-crash-'));
  let db: TestDatabase;
  let child: Child | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('auditcrash'));
    env = {
      DATABASE_URL: db.url,
      AMQP_URL: '',
      REDIS_URL: '',
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
      DATA_DIR: spoolDir,
      AUDIT_SPOOL_DIR: join(spoolDir, 'spool'),
      AUDIT_DURABILITY: 'strict',
      AUDIT_FLUSH_INTERVAL_MS: '600000',
      AUDIT_BATCH_SIZE: '5000',
      USER_POLICY_LIMIT: '100000',
    };
  }, 30_000);

  afterAll(async () => {
    if (child && child.process.exitCode === null) child.process.kill('SIGKILL');
    await db?.drop();
    rmSync(spoolDir, { recursive: true, force: true });
  });

  it('every decision answered before the kill has its audit row after the restart', async () => {
    child = await startChild(env);
    const token = signAccessToken({ sub: 'bob', tenantId: 'default' }, { secret, issuer: 'legal-platform', audience: 'legal-platform-api' });
    const answered: string[] = [];
    const ask = async (i: number) => {
      try {
        const res = await fetch(`http://127.0.0.1:${child!.port}/api/authorization/decisions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ resource: { module: 'cases', resourceType: 'case', resourceId: `c-${i}` }, action: 'View' }),
        });
        if (res.status === 200) answered.push(((await res.json()) as { decisionId: string }).decisionId);
      } catch {
        // the kill cut this one off: it was never answered
      }
    };
    // Load from 16 concurrent callers; the kill lands while they are still asking. They stop on the
    // kill itself: a child killed by a signal keeps exitCode null (only signalCode is set), so
    // waiting for an exit code would have them hammer a closed port until the counter ran out.
    let next = 0;
    let killed = false;
    const workers = Array.from({ length: 16 }, async () => {
      while (!killed) await ask(next++);
    });
    const deadline = Date.now() + 20_000;
    while (answered.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    child.process.kill('SIGKILL');
    await Promise.all(workers);
    expect(answered.length).toBeGreaterThanOrEqual(300);

    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    try {
      const rowsFor = async () =>
        (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM authz_audit.decision_audit WHERE decision_id = ANY ($1::uuid[])`, [answered])).rows[0]!
          .n;
      // The flush interval was 10 minutes: before the restart, the records were in the journal only.
      expect(await rowsFor()).toBeLessThan(answered.length);

      child = await startChild(env);
      const until = Date.now() + 30_000;
      let found = await rowsFor();
      while (found < answered.length && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        found = await rowsFor();
      }
      process.stdout.write(`audit after kill -9 (strict): ${answered.length} answered, ${found} rows found\n`);
      expect(found).toBe(answered.length);
    } finally {
      await sql.end();
    }
  }, 120_000);
});

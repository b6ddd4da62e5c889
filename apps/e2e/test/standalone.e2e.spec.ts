import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { FLEET_SERVICE_NAMES } from '@lp/contracts';
import { root, start, Started, stop } from './support/standalone-process';

/**
 * The operator interface of ARCHITECTURE.md, exercised as an operator would: `npm start` on a fresh
 * DATA_DIR, the ready line and admin token, probes, a guarded route, `npm run -s token`, a SIGTERM
 * to npm that stops the platform, and a restart on the same DATA_DIR keeping data and secret.
 */

/**
 * `npm run -s token`'s script, asynchronously: a synchronous spawn would stall the event loop for
 * seconds on a loaded machine, and fetch would then reuse a keep-alive connection the server had
 * closed meanwhile ("other side closed").
 */
async function mintToken(dataDir: string, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, 'tools/run.mjs'), 'tools/token.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, JWT_SECRET: '' },
    encoding: 'utf8',
  });
  expect(stderr).toBe('');
  return stdout.trim();
}

describe('standalone: npm start on the embedded defaults', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'lp-standalone-')), 'data');
  let first: Started | undefined;
  let second: Started | undefined;

  afterAll(async () => {
    await stop(first);
    await stop(second);
    rmSync(dirname(dataDir), { recursive: true, force: true });
  });

  it('prints the ready line and an admin token, and is ready within 20 s of it', async () => {
    // At the default log level, as a new user sees it (the start-up output is checked below).
    first = await start(dataDir, { LOG_LEVEL: 'info' });
    let status = 0;
    while (Date.now() - first.readyAt < 20_000) {
      status = (await fetch(`${first.baseUrl}/health/ready`)).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await fetch(`${first.baseUrl}/health/live`)).status).toBe(200);
  }, 180_000);

  it('prints under 40 lines up to its ready block, in one log style, with no warning, and nothing after it once the first job catalog round is done', async () => {
    // The first reconciliation of every service's job catalog is the last start-up work: wait for
    // it to be counted (operations' metric), then nothing more may have been printed.
    const reconciled = async () => {
      const metrics = await (await fetch(`${first!.baseUrl}/metrics`)).text();
      return FLEET_SERVICE_NAMES.every((service) =>
        new RegExp(`^operations_job_catalog_syncs_total\\{source="${service}",outcome="reconciled"\\} [1-9]`, 'm').test(metrics),
      );
    };
    const deadline = Date.now() + 60_000;
    while (!(await reconciled()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await reconciled()).toBe(true);

    const lines = first!.output().replace(/\n$/, '').split('\n');
    const blockEnd = lines.indexOf(first!.adminToken); // the ready block ends with the admin token
    const startup = lines.slice(0, blockEnd + 1);
    expect(startup.length).toBeLessThan(40);
    expect(startup.filter((line) => /\b(WARN|ERROR|FATAL)\b|Warning:/.test(line))).toEqual([]);
    // One log style: pino only, no line of Nest's own console logger, no raw colour codes off a TTY.
    expect(startup.filter((line) => line.includes('[Nest]') || line.includes('\u001b['))).toEqual([]);
    expect(startup.filter((line) => / started in \d+ ms/.test(line))).toHaveLength(FLEET_SERVICE_NAMES.length);
    expect(lines.slice(blockEnd + 1)).toEqual([]);
  }, 90_000);

  it('answers a guarded route with 401 problem+json without a token', async () => {
    const res = await fetch(`${first!.baseUrl}/api/authorization/roles`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as { correlationId?: string };
    expect(body).toMatchObject({ status: 401, code: 'Authentication.Required' });
    expect(body.correlationId).toEqual(expect.any(String));
  });

  it('reaches the guard with a token from npm run -s token: a caller holding no role is denied, the seeded admin is permitted', async () => {
    const token = await mintToken(dataDir, '--sub', 'alice', '--tenant', 'default');
    const res = await fetch(`${first!.baseUrl}/api/authorization/roles`, {
      headers: { authorization: `Bearer ${token}`, 'x-correlation-id': 'e2e-corr-1' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-correlation-id')).toBe('e2e-corr-1');
    expect(await res.json()).toMatchObject({ status: 403, code: 'Authorization.Denied', correlationId: 'e2e-corr-1' });
    const admin = await fetch(`${first!.baseUrl}/api/authorization/roles`, { headers: { authorization: `Bearer ${first!.adminToken}` } });
    expect(admin.status).toBe(200);
    const roles = (await admin.json()) as { items: Array<{ name: string }> };
    expect(roles.items.map((r) => r.name)).toContain('platform-admin');
  });

  it("serves every service's OpenAPI document, metrics, and a problem for unknown paths", async () => {
    const doc = (await (await fetch(`${first!.baseUrl}/openapi/policy-management.json`)).json()) as { paths: object };
    expect(Object.keys(doc.paths)).toContain('/api/authorization/roles');
    expect((await fetch(`${first!.baseUrl}/openapi/authz-decision.json`)).status).toBe(200);
    const metrics = await (await fetch(`${first!.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_bucket\{[^}]*service="policy-management"/);
    // The API explorer: every service's document in one Swagger UI, its assets served locally.
    const explorer = await fetch(`${first!.baseUrl}/docs`);
    expect(explorer.status).toBe(200);
    expect(await explorer.text()).toContain('<script src="/docs/explorer.js">');
    const start = await (await fetch(`${first!.baseUrl}/docs/explorer.js`)).text();
    expect(start).toContain('/openapi/policy-management.json');
    expect(start).toContain('/openapi/authz-decision.json');
    expect((await fetch(`${first!.baseUrl}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${first!.baseUrl}/docs/assets/nothing-here.js`)).status).toBe(404);
    const missing = await fetch(`${first!.baseUrl}/nowhere`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('NotFound');
  });

  it('answers HEAD wherever GET answers, 405 with Allow for a method a path lacks, 415 for content that is not JSON (RFC 9110)', async () => {
    const base = first!.baseUrl;
    const auth = { authorization: `Bearer ${first!.adminToken}` };
    /** What every answer carries, whoever in the process gives it. */
    const baseline = (res: Response) => [res.headers.get('x-content-type-options'), res.headers.get('x-correlation-id')?.length];
    // The process's own probes, metrics and explorer, an OpenAPI document and a service's route.
    for (const path of ['/health/live', '/health/ready', '/metrics', '/docs', '/docs/explorer.js', '/openapi/case-management.json', '/api/cases']) {
      const get = await fetch(`${base}${path}`, { headers: auth });
      await get.arrayBuffer();
      const head = await fetch(`${base}${path}`, { method: 'HEAD', headers: auth });
      expect({ path, status: head.status, type: head.headers.get('content-type'), body: await head.text(), baseline: baseline(head) }).toEqual({
        path,
        status: get.status,
        type: get.headers.get('content-type'),
        body: '',
        baseline: ['nosniff', 36],
      });
      expect(get.status).toBe(200);
    }
    const refused = async (method: string, path: string) => {
      const res = await fetch(`${base}${path}`, { method, headers: auth });
      const body = (await res.json()) as { code: string; correlationId: string };
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect([...baseline(res), body.correlationId]).toEqual(['nosniff', 36, res.headers.get('x-correlation-id')]);
      return [res.status, body.code, res.headers.get('allow')];
    };
    expect(await refused('DELETE', '/api/cases')).toEqual([405, 'MethodNotAllowed', 'GET, HEAD, POST']);
    expect(await refused('POST', '/health/live')).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);
    expect(await refused('PUT', '/metrics')).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);
    expect(await refused('POST', '/docs')).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);
    expect(await refused('DELETE', '/openapi/policy-management.json')).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);
    expect(await refused('DELETE', '/api/nowhere')).toEqual([404, 'NotFound', null]);
    expect(await refused('GET', '/docs/nowhere')).toEqual([404, 'NotFound', null]);

    const sent = async (method: string, path: string, type: string) => {
      const res = await fetch(`${base}${path}`, { method, headers: { ...auth, 'content-type': type }, body: '{}' });
      return [res.status, ((await res.json()) as { code?: string }).code];
    };
    expect(await sent('POST', '/api/cases', 'text/plain')).toEqual([415, 'UnsupportedMediaType']);
    expect(await sent('POST', '/api/authorization/roles', 'application/x-www-form-urlencoded')).toEqual([415, 'UnsupportedMediaType']);
    // A report's query in a body the route cannot read was ignored (200 over every instance) before.
    expect(await sent('QUERY', '/api/workflow/reports/instances', 'text/plain')).toEqual([415, 'UnsupportedMediaType']);
    expect(await sent('QUERY', '/api/workflow/reports/instances', 'application/json')).toEqual([200, undefined]);
  });

  it('answers a burst of 500 concurrent writes and reads on the embedded database: what it cannot take at once is refused at once (503 ServiceUnavailable, Retry-After), retried every write lands once, no other error', async () => {
    // Admission control (docs/decisions.md): the process works on what it can answer in time and
    // turns the excess away with 503 ServiceUnavailable and Retry-After, instead of taking all 500
    // and answering none in time. Each request here retries a refusal as a client should: after
    // Retry-After, doubling up to 4 times it, plus a fixed step per request (the jitter a client
    // adds), for 90 s at most.
    const headers = { authorization: `Bearer ${first!.adminToken}`, 'content-type': 'application/json' };
    const roles = `${first!.baseUrl}/api/authorization/roles`;
    const countRoles = async () => ((await (await fetch(`${roles}?pageSize=1`, { headers })).json()) as { totalCount: number }).totalCount;
    const before = await countRoles();
    const refusals: Array<string | null> = [];
    let firstAttemptSucceeded = 0;
    const began = performance.now();
    const send = async (i: number): Promise<string> => {
      const write = i % 5 < 2;
      for (let attempt = 0; performance.now() - began < 90_000; attempt++) {
        const res = await (write ? fetch(roles, { method: 'POST', headers, body: JSON.stringify({ name: `load-${i}` }) }) : fetch(roles, { headers }));
        const body = (await res.json()) as { code?: string };
        if (res.status === 503 && body.code === 'ServiceUnavailable') {
          refusals.push(res.headers.get('retry-after'));
          const wait = 1_000 * Number(res.headers.get('retry-after')) * Math.min(2 ** attempt, 4) + (i % 20) * 50;
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        if (attempt === 0) firstAttemptSucceeded += 1;
        return `${write ? 'POST' : 'GET'} ${res.status}${res.status >= 400 ? ` ${body.code}` : ''}`;
      }
      return `${write ? 'POST' : 'GET'} still refused`;
    };
    const statuses = await Promise.all(Array.from({ length: 500 }, (_, i) => send(i)));
    const tally = statuses.reduce<Record<string, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
    // Nothing but success in the end: no admitted request was starved into a decision timeout (503
    // Authorization.Unavailable) or another error.
    expect(tally).toEqual({ 'POST 201': 200, 'GET 200': 300 });
    expect(await countRoles()).toBe(before + 200);
    // Work went on during the burst: at least the starting concurrency limit (32) was answered at once.
    expect(firstAttemptSucceeded).toBeGreaterThanOrEqual(32);
    expect(refusals.every((retryAfter) => retryAfter === '1')).toBe(true);
  }, 120_000);

  it('keeps data and secret across a restart on the same DATA_DIR', async () => {
    const secretBefore = readFileSync(join(dataDir, 'jwt-signing-secret'), 'utf8');
    const tokenBefore = first!.adminToken;
    await stop(first);
    // SIGTERM to npm stopped the platform behind it, not only npm (no orphan still serving).
    await expect(fetch(`${first!.baseUrl}/health/live`)).rejects.toThrow();
    // Leave a row behind in the stopped platform's database, as data written by the first run.
    const before = await PGlite.create(join(dataDir, 'pgdata'));
    await before.query(`INSERT INTO authz.role (tenant_id, name) VALUES ('default', 'kept-across-restart')`);
    const migrationsBefore = (await before.query<{ n: number }>('SELECT count(*)::int AS n FROM authz.schema_migrations')).rows[0]!.n;
    const seededBefore = (await before.query<{ n: number }>(`SELECT count(*)::int AS n FROM authz.policy_change_log WHERE actor = 'policy-management:seed'`))
      .rows[0]!.n;
    expect(seededBefore).toBeGreaterThan(0);
    await before.close();

    second = await start(dataDir);
    expect(readFileSync(join(dataDir, 'jwt-signing-secret'), 'utf8')).toBe(secretBefore);
    // A token signed before the restart still authenticates, and the seed changed nothing the second time.
    const res = await fetch(`${second.baseUrl}/api/authorization/roles`, { headers: { authorization: `Bearer ${tokenBefore}` } });
    expect(res.status).toBe(200);
    await stop(second);

    const after = await PGlite.create(join(dataDir, 'pgdata'));
    const kept = await after.query<{ name: string }>(`SELECT name FROM authz.role WHERE tenant_id = 'default'`);
    const seeded = await after.query<{ n: number }>(`SELECT count(*)::int AS n FROM authz.policy_change_log WHERE actor = 'policy-management:seed'`);
    const migrationsAfter = (await after.query<{ n: number }>('SELECT count(*)::int AS n FROM authz.schema_migrations')).rows[0]!.n;
    await after.close();
    expect(kept.rows.map((r) => r.name)).toContain('kept-across-restart');
    expect(migrationsAfter).toBe(migrationsBefore);
    expect(seeded.rows[0]!.n).toBe(seededBefore);
  }, 120_000);
});

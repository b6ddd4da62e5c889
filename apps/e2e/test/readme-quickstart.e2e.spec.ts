import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, start, Started, stop } from './support/standalone-process';

interface Snippet {
  lang: 'sh' | 'js';
  code: string;
}

/** The `sh` and `js` blocks of one README section, in order. */
function readmeSnippets(section: string): Snippet[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const from = readme.indexOf(`## ${section}\n`);
  if (from === -1) throw new Error(`README has no section "${section}"`);
  const next = readme.indexOf('\n## ', from + 1);
  const text = readme.slice(from, next === -1 ? undefined : next);
  return [...text.matchAll(/```(sh|js)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] as Snippet['lang'], code: m[2] ?? '' }));
}

const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

// The README's first calls and MCP snippets, run as written against `npm start`: each snippet on its
// own (a fresh shell with `set -u`, so one that leans on another's variables fails), top to bottom on
// a fresh data directory, then all again after a restart on the same one, as a reader who comes back
// the next day would. Only PORT is set, as the Quick start says to (the test takes a free port).
describe('README: the first calls work as written, and again after a restart', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lp-readme-'));
  const dataDir = join(tmp, 'data');
  let platform: Started | undefined;
  afterAll(async () => {
    await stop(platform);
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Every snippet of the two sections against the running platform: each one's stdout, in order. */
  function runReadme(running: Started): string[] {
    const port = new URL(running.baseUrl).port;
    const env = { ...process.env, PORT: port, DATA_DIR: dataDir, JWT_SECRET: '' };
    return [...readmeSnippets('First calls'), ...readmeSnippets('Connecting an AI client (MCP)')].map(({ lang, code }) => {
      const run =
        lang === 'sh'
          ? // stdin not a socket (Node's default pipe is one): Debian's bash would take itself for an ssh session and read bashrc.
            spawnSync('bash', ['-euo', 'pipefail', '-c', code], { cwd: root, env, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] })
          : // As `node my-agent.mjs` in a project that installed the SDK (this one has), with the token the README mints.
            spawnSync(process.execPath, ['--input-type=module', '-e', code], {
              cwd: root,
              env: { ...env, TOKEN: running.adminToken },
              encoding: 'utf8',
              timeout: 60_000,
            });
      expect({ code, stderr: run.stderr, status: run.status }).toEqual({ code, stderr: '', status: 0 });
      return run.stdout;
    });
  }

  function expectTheReadmeOutputs(outputs: string[]): void {
    const [roles, aliceGranted, decision, aliceRevoked, tokens, mcpCurl, mcpSdk, ...rest] = outputs;
    expect(rest).toEqual([]);
    expect(roles).toContain('"platform-admin"'); // the admin's role list
    expect(aliceGranted).toBe('403\n200\n'); // refused; role found or created, granted, assigned (204s print nothing); permitted
    expect(decision).toMatch(/"outcome":"Permit"/);
    expect(aliceRevoked).toBe('403\n');
    const [app, delegated, short] = (tokens ?? '').trim().split('\n').map(payloadOf);
    expect(app).toEqual(expect.objectContaining({ client_id: 'billing-sync', tenant_id: 'default' }));
    expect(delegated).toEqual(expect.objectContaining({ sub: 'alice', act: { sub: 'bob' }, tenant_id: 'default' }));
    expect(Number(short?.exp) - Number(short?.iat)).toBe(600);
    expect(mcpCurl).toContain('create_litigation_case');
    expect(mcpSdk?.split('\n')).toContain('create_litigation_case');
  }

  it('runs top to bottom on a fresh data directory', async () => {
    platform = await start(dataDir);
    expectTheReadmeOutputs(runReadme(platform));
  }, 300_000);

  it('runs top to bottom again after a restart on the same data directory', async () => {
    await stop(platform);
    platform = await start(dataDir);
    expectTheReadmeOutputs(runReadme(platform));
  }, 300_000);
});

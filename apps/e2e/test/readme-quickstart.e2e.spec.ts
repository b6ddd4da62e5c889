import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, start, Started, stop } from './support/standalone-process';

/** The `sh` blocks of one README section, in order, as one script. */
function readmeCommands(section: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const from = readme.indexOf(`## ${section}\n`);
  if (from === -1) throw new Error(`README has no section "${section}"`);
  const next = readme.indexOf('\n## ', from + 1);
  const text = readme.slice(from, next === -1 ? undefined : next);
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
}

// The README's first calls, run as written against `npm start` on a fresh data directory, so the
// README cannot drift from the behaviour (only the port differs: the test takes a free one).
describe('README: the first calls work as written', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'lp-readme-')), 'data');
  let platform: Started | undefined;
  afterAll(() => stop(platform));

  it('lists roles as admin, refuses alice, grants her a role, permits her, answers a decision', async () => {
    platform = await start(dataDir);
    const script = readmeCommands('First calls').replaceAll('http://127.0.0.1:3000', platform.baseUrl);
    expect(script).toContain('npm run -s token');
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, JWT_SECRET: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = run.stdout;
    expect(out).toContain('"platform-admin"'); // the admin's role list
    expect(out).toMatch(/403\n200\n/); // alice refused; the grant and assignment print nothing (204); then permitted
    expect(out).toMatch(/"outcome":"Permit"/); // the decision with a full body
  }, 120_000);
});

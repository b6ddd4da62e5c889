import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { PlatformRuntime, SIGNING_SECRET_FILE, startPlatformRuntime, StartupError } from '../src';

/** The embedded profile only: no server URL, a generated secret. */
const embeddedEnv = (dataDir: string) => ({ DATA_DIR: dataDir, DATABASE_URL: '', AMQP_URL: '', REDIS_URL: '', JWT_SECRET: '', LOG_LEVEL: 'warn' });

/** Every entry under `root` (itself included) whose mode lets the group or others in, as `path mode`. */
function openToOthers(root: string): { entries: number; open: string[] } {
  const open: string[] = [];
  let entries = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    entries++;
    const expected = stats.isDirectory() ? 0o700 : 0o600;
    if ((stats.mode & 0o777) !== expected && !stats.isSocket()) open.push(`${path.slice(root.length)} 0${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return { entries, open };
}

/** A runtime that started where it should have refused is closed, so a failing test does not hold Jest open. */
const closeIfStarted = (runtime: PlatformRuntime) => runtime.close();

const asRoot = process.getuid?.() === 0 && existsSync('/usr/sbin/runuser');
/** Runs a command as the unprivileged `nobody`, as any other local account would. */
const asNobody = (...command: string[]) => spawnSync('runuser', ['-u', 'nobody', '--', ...command], { encoding: 'utf8' });

describe('DATA_DIR is private to the user running the platform, whatever the umask', () => {
  let home: string;
  let umask: number;

  beforeAll(() => {
    umask = process.umask(0o022); // the usual default, under which the files were world-readable
    home = mkdtempSync(join(tmpdir(), 'lp-datadir-'));
    chmodSync(home, 0o755); // as a home or a checkout is: other users may enter it
  });

  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    process.umask(umask);
  });

  describe('after the embedded platform ran on it', () => {
    const dataDir = () => join(home, 'data');

    beforeAll(async () => {
      const runtime = await startPlatformRuntime('data-dir-test', embeddedEnv(dataDir()));
      try {
        const client = new Client({ connectionString: runtime.database.url });
        await client.connect();
        try {
          // New relation files after start, as every tenant's rows are.
          await client.query('CREATE TABLE tenant_rows (tenant_id text, secret text)');
          await client.query(`INSERT INTO tenant_rows VALUES ('acme', 'privileged')`);
          await client.query('CHECKPOINT');
        } finally {
          await client.end();
        }
        // A writer that passes no mode (as PGlite does not) still gets owner-only: the audit spool.
        mkdirSync(join(dataDir(), 'audit-spool', 'host'), { recursive: true });
        writeFileSync(join(dataDir(), 'audit-spool', 'host', 'decision-audit.spool.jsonl'), '{"decisionId":"x"}\n');
      } finally {
        await runtime.close();
      }
    }, 120_000);

    it('holds only 0700 directories and 0600 files: DATA_DIR, the database, the signing secret, the spool', () => {
      const { entries, open } = openToOthers(dataDir());
      expect(entries).toBeGreaterThan(1_000); // the whole PGlite cluster is there
      expect(open).toEqual([]);
      expect(existsSync(join(dataDir(), SIGNING_SECRET_FILE))).toBe(true);
    });

    (asRoot ? it : it.skip)('lets no other local account list or read anything in it (runuser -u nobody)', () => {
      expect(asNobody('ls', home).stdout).toContain('data'); // nobody reaches DATA_DIR itself...
      const list = asNobody('ls', dataDir());
      expect([list.status, list.stdout]).toEqual([2, '']); // ...but cannot list it
      const secret = asNobody('cat', join(dataDir(), SIGNING_SECRET_FILE));
      expect([secret.status, secret.stdout]).toEqual([1, '']);
      const versionFile = asNobody('cat', join(dataDir(), 'pgdata', 'PG_VERSION'));
      expect([versionFile.status, versionFile.stdout]).toEqual([1, '']);
      // Every file and directory nobody could read: none.
      expect(asNobody('find', dataDir(), '-readable').stdout).toBe('');
    });
  });

  it('refuses to start on a DATA_DIR other users can write, before writing anything there', async () => {
    const dataDir = join(home, 'shared');
    mkdirSync(dataDir);
    for (const mode of [0o777, 0o775, 0o1777]) {
      chmodSync(dataDir, mode);
      const started = startPlatformRuntime('data-dir-test', embeddedEnv(dataDir));
      void started.then(closeIfStarted, () => undefined);
      await expect(started).rejects.toBeInstanceOf(StartupError);
      await expect(started).rejects.toThrow(/DATA_DIR .*shared is writable by other users \(mode 0\d+\).*chmod 700/);
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });

  (asRoot ? it : it.skip)('refuses a DATA_DIR another user owns', async () => {
    const dataDir = join(home, 'theirs');
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, 65534, 65534);
    const started = startPlatformRuntime('data-dir-test', embeddedEnv(dataDir));
    void started.then(closeIfStarted, () => undefined);
    await expect(started).rejects.toThrow(/owned by uid 65534, not by the user this process runs as \(uid 0\)/);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

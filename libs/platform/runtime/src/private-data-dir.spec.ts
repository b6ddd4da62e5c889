import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preparePrivateDataDir } from './private-data-dir';
import { StartupError } from './startup-error';

const mode = (path: string) => lstatSync(path).mode & 0o7777;

describe('preparePrivateDataDir', () => {
  let home: string;
  let umask: number;

  beforeEach(() => {
    umask = process.umask(0o022);
    home = mkdtempSync(join(tmpdir(), 'lp-private-'));
  });

  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    process.umask(umask);
  });

  it('creates a missing DATA_DIR (and its parents) 0700 and leaves the process umask owner-only', () => {
    const dataDir = join(home, 'a', 'data');
    expect(preparePrivateDataDir(dataDir)).toBe(0);
    expect(mode(dataDir)).toBe(0o700);
    expect(process.umask(0o077) & 0o077).toBe(0o077);
    writeFileSync(join(dataDir, 'any-writer'), 'x'); // default mode 0666, before the umask
    expect(mode(join(dataDir, 'any-writer'))).toBe(0o600);
  });

  it('makes what an earlier version left readable owner-only, without following symbolic links', () => {
    const dataDir = join(home, 'data');
    mkdirSync(join(dataDir, 'pgdata', 'base'), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'pgdata'), 0o755);
    writeFileSync(join(dataDir, 'pgdata', 'base', '16384'), 'rows', { mode: 0o666 });
    chmodSync(join(dataDir, 'pgdata', 'base', '16384'), 0o666);
    writeFileSync(join(dataDir, 'spool.jsonl'), '{}', { mode: 0o644 });
    chmodSync(join(dataDir, 'spool.jsonl'), 0o644);
    const outside = join(home, 'outside.txt');
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(dataDir, 'link'));

    expect(preparePrivateDataDir(dataDir)).toBe(5); // DATA_DIR, pgdata, base, the table file, the spool
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'pgdata'))).toBe(0o700);
    expect(mode(join(dataDir, 'pgdata', 'base'))).toBe(0o700);
    expect(mode(join(dataDir, 'pgdata', 'base', '16384'))).toBe(0o600);
    expect(mode(join(dataDir, 'spool.jsonl'))).toBe(0o600);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
    expect(preparePrivateDataDir(dataDir)).toBe(0); // nothing left to do on the next start
  });

  it('refuses a DATA_DIR others can write, and one that is not a directory', () => {
    const shared = join(home, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o770);
    expect(() => preparePrivateDataDir(shared)).toThrow(StartupError);
    expect(() => preparePrivateDataDir(shared)).toThrow(/writable by other users \(mode 0770\)/);
    expect(mode(shared)).toBe(0o770); // left as found, for the operator to inspect

    const file = join(home, 'file');
    writeFileSync(file, '');
    expect(() => preparePrivateDataDir(file)).toThrow(/is not a directory/);
  });
});

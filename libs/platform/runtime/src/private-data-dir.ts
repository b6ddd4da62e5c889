import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from './startup-error';

/** Bits that let the group or others in: none may stay on anything under DATA_DIR. */
const GROUP_OR_OTHER = 0o077;
const WRITABLE_BY_GROUP_OR_OTHER = 0o022;

/**
 * Makes DATA_DIR private to this OS user before anything is written there, and refuses one that is
 * not. DATA_DIR holds every tenant's rows (the embedded database), the generated signing and
 * encryption keys and the decision audit spool, so nobody else may read it, whatever the umask.
 *
 * - The process umask gains 077: PGlite creates its files (0666) and directories (0777) for as long
 *   as it runs, with no per-file mode to pass, so only the umask keeps them at 0600 and 0700. The
 *   umask is per process: a service writes nothing outside DATA_DIR that others need to read.
 * - DATA_DIR is created 0700. An existing one that another user owns, or that the group or others
 *   can write, is refused: someone else could already have read it, replaced a file or planted one
 *   (a signing secret of their choosing), and making it private now would hide that, not undo it.
 * - Whatever an earlier version left readable inside (PGlite's 0666 files, 0755 directories, a 0644
 *   spool) is made owner-only, as is a DATA_DIR that others can read but not write. Symbolic links
 *   are not followed. PGlite also sets some modes itself, past the umask (its bundled initial cluster
 *   0666, a few files PostgreSQL writes 0644): the runtime calls `makeOwnerOnly` on the database
 *   directory again once it is open and once it is closed. In between, its 0700 directories keep
 *   every file out of reach.
 *
 * Only DATA_DIR itself is checked, not its parents: a deployment puts it inside a volume it owns
 * (`/data/lp`; a Kubernetes emptyDir is world-writable) rather than at the volume's root.
 *
 * @returns how many existing entries were made owner-only (0 on a clean start)
 */
export function preparePrivateDataDir(dataDir: string): number {
  process.umask(process.umask(0o077) | GROUP_OR_OTHER);
  const uid = process.getuid?.();
  let existing;
  try {
    existing = statSync(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!existing) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return 0;
  }
  if (!existing.isDirectory()) throw new StartupError(`DATA_DIR ${dataDir} is not a directory.`);
  if (uid !== undefined && existing.uid !== uid) {
    throw new StartupError(
      `DATA_DIR ${dataDir} is owned by uid ${existing.uid}, not by the user this process runs as (uid ${uid}): its owner can read and change it at will. Use a directory this user owns.`,
    );
  }
  if (existing.mode & WRITABLE_BY_GROUP_OR_OTHER) {
    throw new StartupError(
      `DATA_DIR ${dataDir} is writable by other users (mode ${octal(existing.mode)}): they could read or replace the database, keys and audit spool. ` +
        `Check its contents, then make it private (chmod 700 ${dataDir}), or point DATA_DIR at a directory only this user can write.`,
    );
  }
  return makeOwnerOnly(dataDir);
}

/** Clears the group and other bits of `path` and of everything below it; counts what changed. */
export function makeOwnerOnly(path: string): number {
  return makeTreeOwnerOnly(path, statSync(path).mode);
}

function makeTreeOwnerOnly(path: string, mode: number): number {
  let changed = tighten(path, mode) ? 1 : 0;
  for (const name of readdirSync(path)) {
    const entry = join(path, name);
    const stats = ignoreVanished(() => lstatSync(entry));
    if (!stats || stats.isSymbolicLink()) continue;
    if (stats.isDirectory()) changed += ignoreVanished(() => makeTreeOwnerOnly(entry, stats.mode)) ?? 0;
    else if (tighten(entry, stats.mode)) changed++;
  }
  return changed;
}

function tighten(path: string, mode: number): boolean {
  if (!(mode & GROUP_OR_OTHER)) return false;
  try {
    return ignoreVanished(() => (chmodSync(path, mode & 0o7700), true)) ?? false;
  } catch (error) {
    throw new StartupError(`Cannot make ${path} under DATA_DIR private to this user: ${(error as Error).message}`);
  }
}

/** An entry removed while we walk (a spool another process cleared) needs nothing. */
function ignoreVanished<T>(step: () => T): T | undefined {
  try {
    return step();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

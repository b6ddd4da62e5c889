import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { PGliteWireBridge } from './pglite-wire-bridge';

/** Where a Postgres client looks for the server's socket in a directory (libpq and `pg` agree). */
const SOCKET_FILE = '.s.PGSQL.5432';
/** sun_path holds 108 bytes on Linux, including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

/**
 * The embedded database of the default profile: PGlite persisted under `DATA_DIR`, served over the
 * Postgres wire protocol so TypeORM's ordinary `pg` driver talks to it: one code path, one set of
 * migrations for embedded and production.
 *
 * It listens on a Unix socket in a directory only this OS user can enter (mode 0700), never on a
 * TCP port: PGlite accepts any user and password, so a TCP listener would let any local process
 * rewrite policy without the API. The socket directory is `DATA_DIR/run` (the runtime passes it),
 * or a private directory under the system temp dir when that path is too long for a Unix socket.
 */
export class EmbeddedPostgres {
  private static readonly logger = new Logger(EmbeddedPostgres.name);

  private constructor(
    readonly url: string,
    readonly socketPath: string,
    private readonly bridge: PGliteWireBridge,
    private readonly db: PGlite,
    private readonly cleanup: () => void,
  ) {}

  /**
   * @param dataDirectory the PGlite data directory (`DATA_DIR/pgdata`)
   * @param options.socketDirectory where the socket lives (default: `run-<name>` beside the data directory)
   */
  static async start(dataDirectory: string, options: { socketDirectory?: string } = {}): Promise<EmbeddedPostgres> {
    mkdirSync(dataDirectory, { recursive: true, mode: 0o700 }); // its files follow the umask (the runtime makes it 077)
    const { directory, temporary } = privateSocketDirectory(options.socketDirectory ?? join(dirname(dataDirectory), `run-${basename(dataDirectory)}`));
    const socketPath = join(directory, SOCKET_FILE);
    await refuseIfServed(socketPath);
    const db = await PGlite.create(dataDirectory);
    const bridge = new PGliteWireBridge(db);
    await bridge.listen(socketPath);
    chmodSync(socketPath, 0o600);
    EmbeddedPostgres.logger.debug(`embedded PostgreSQL (PGlite) on unix socket ${socketPath}, data in ${dataDirectory}`);
    const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(directory)}`;
    return new EmbeddedPostgres(url, socketPath, bridge, db, () => {
      if (temporary) rmSync(directory, { recursive: true, force: true });
      else if (existsSync(socketPath)) unlinkSync(socketPath);
    });
  }

  async stop(): Promise<void> {
    await this.bridge.close();
    await this.db.close();
    this.cleanup();
  }
}

/** The socket directory with mode 0700, or a fresh private one under tmpdir when the path is too long. */
function privateSocketDirectory(preferred: string): { directory: string; temporary: boolean } {
  if (join(preferred, SOCKET_FILE).length <= MAX_SOCKET_PATH) {
    mkdirSync(preferred, { recursive: true, mode: 0o700 });
    chmodSync(preferred, 0o700); // mkdir leaves an existing directory's mode as it was
    return { directory: preferred, temporary: false };
  }
  return { directory: mkdtempSync(join(tmpdir(), 'lp-pg-')), temporary: true }; // mkdtemp creates 0700
}

/**
 * A socket file left by a process that died is removed; one that still answers belongs to a live
 * process on the same DATA_DIR, and two PGlite instances on one data directory would corrupt it.
 */
async function refuseIfServed(socketPath: string): Promise<void> {
  if (!existsSync(socketPath)) return;
  const answered = await new Promise<boolean>((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (answered) throw new Error(`The embedded database at ${socketPath} is already served by another process using this DATA_DIR.`);
  unlinkSync(socketPath);
}

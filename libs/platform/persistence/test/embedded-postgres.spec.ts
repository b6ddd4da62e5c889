import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { EmbeddedPostgres } from '../src/lib/embedded-postgres';

// The embedded database is what `npm start` runs on: every service's pool shares its one PGlite
// session through the wire bridge. These run without any server: PGlite is in-process.
describe('the embedded database (PGlite behind the wire bridge)', () => {
  let dir: string;
  let pg: EmbeddedPostgres;
  const pools: Pool[] = [];
  const pool = (max = 4) => {
    const p = new Pool({ connectionString: pg.url, max, connectionTimeoutMillis: 20_000 });
    p.on('error', () => undefined);
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lp-embedded-'));
    pg = await EmbeddedPostgres.start(join(dir, 'pgdata'));
    await pool(1).query(`CREATE TABLE ledger (id serial PRIMARY KEY, writer int NOT NULL, amount int NOT NULL)`);
  }, 60_000);

  afterAll(async () => {
    for (const p of pools) await p.end().catch(() => undefined);
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 500 concurrent mixed reads and writes from several pools: 0 refused, 0 protocol errors, every answer its own', async () => {
    const clients = [pool(), pool(), pool(), pool()];
    const errors: string[] = [];
    const wrong: string[] = [];
    const work = Array.from({ length: 500 }, async (_, i) => {
      const db = clients[i % clients.length]!;
      try {
        switch (i % 5) {
          case 0: {
            // Two parameters
            const { rows } = await db.query('SELECT $1::int AS n, $2::text AS label', [i, `q${i}`]);
            if (rows[0].n !== i || rows[0].label !== `q${i}`) wrong.push(`#${i}: ${JSON.stringify(rows[0])}`);
            break;
          }
          case 1: {
            // One parameter: the shape that used to receive another query's Bind
            const { rows } = await db.query('SELECT $1::int * 2 AS doubled', [i]);
            if (rows[0].doubled !== i * 2) wrong.push(`#${i}: ${JSON.stringify(rows[0])}`);
            break;
          }
          case 2: {
            // A write outside a transaction
            const { rows } = await db.query('INSERT INTO ledger (writer, amount) VALUES ($1, $2) RETURNING writer, amount', [i, i * 10]);
            if (rows[0].writer !== i || rows[0].amount !== i * 10) wrong.push(`#${i}: ${JSON.stringify(rows[0])}`);
            break;
          }
          case 3: {
            // A transaction on one pinned connection
            const c = await db.connect();
            try {
              await c.query('BEGIN');
              await c.query('INSERT INTO ledger (writer, amount) VALUES ($1, 1), ($1, 2)', [i]);
              const { rows } = await c.query('SELECT sum(amount)::int AS total FROM ledger WHERE writer = $1', [i]);
              await c.query('COMMIT');
              if (rows[0].total !== 3) wrong.push(`#${i}: total ${rows[0].total}`);
            } finally {
              c.release();
            }
            break;
          }
          default: {
            // A statement that fails inside the extended protocol, then the same connection goes on
            const failed = await db.query('SELECT $1::int AS n FROM no_such_table', [i]).then(
              () => 'no error',
              (e: { code?: string }) => e.code,
            );
            if (failed !== '42P01') wrong.push(`#${i}: expected undefined_table, got ${failed}`);
            const { rows } = await db.query('SELECT $1::text AS echo', [`after-${i}`]);
            if (rows[0].echo !== `after-${i}`) wrong.push(`#${i}: ${JSON.stringify(rows[0])}`);
          }
        }
      } catch (error) {
        errors.push(`#${i}: ${(error as Error).message}`);
      }
    });
    await Promise.all(work);
    expect(errors).toEqual([]);
    expect(wrong).toEqual([]);
    const { rows } = await clients[0]!.query('SELECT count(*)::int AS n FROM ledger');
    expect(rows[0].n).toBe(100 + 200); // 100 single inserts, 100 transactions of two rows
  }, 120_000);

  it('a client that dies inside a transaction neither blocks the others nor leaves its writes', async () => {
    const doomed = new Client({ connectionString: pg.url });
    doomed.on('error', () => undefined);
    await doomed.connect();
    await doomed.query('BEGIN');
    await doomed.query('INSERT INTO ledger (writer, amount) VALUES (-1, 99)');
    const waiting = pool(1).query('SELECT count(*)::int AS n FROM ledger WHERE writer = -1'); // queued behind the transaction
    (doomed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const { rows } = await waiting;
    expect(rows[0].n).toBe(0);
  }, 30_000);

  it('listens only on a Unix socket in a directory only its owner can enter', async () => {
    expect(new URL(pg.url).searchParams.get('host')).toBe(join(dir, 'run-pgdata'));
    expect(statSync(join(dir, 'run-pgdata')).mode & 0o777).toBe(0o700);
    expect(statSync(pg.socketPath).mode & 0o777).toBe(0o600);
    // Another local user (here `nobody`) cannot connect; as this user, the same probe can.
    const probe = `require('net').connect(process.argv[1]).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})`;
    const asOwner = spawnSync(process.execPath, ['-e', probe, pg.socketPath], { encoding: 'utf8' });
    expect(asOwner.stdout.trim()).toBe('connected');
    const runuser = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', probe, pg.socketPath], { encoding: 'utf8' });
    if (runuser.error || runuser.status !== 0 || process.getuid?.() !== 0) {
      console.warn(`not root or no runuser here: the other-user probe is skipped (${runuser.stderr?.trim() ?? runuser.error})`);
    } else {
      expect(runuser.stdout.trim()).toBe('EACCES');
    }
  });

  it('refuses a second server on the same data directory', async () => {
    await expect(EmbeddedPostgres.start(join(dir, 'pgdata'))).rejects.toThrow(/already served by another process/);
  });
});

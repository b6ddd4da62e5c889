import { mkdirSync } from 'node:fs';
import { Logger } from '@nestjs/common';

/**
 * The embedded database of the default profile: PGlite persisted under `DATA_DIR`, served over the
 * Postgres wire protocol on loopback so TypeORM's ordinary `pg` driver talks to it: one code path,
 * one set of migrations for embedded and production.
 */
export class EmbeddedPostgres {
  private static readonly logger = new Logger(EmbeddedPostgres.name);

  private constructor(
    readonly url: string,
    private readonly stopServer: () => Promise<void>,
    private readonly closeDb: () => Promise<void>,
  ) {}

  static async start(dataDirectory: string, options: { maxConnections?: number } = {}): Promise<EmbeddedPostgres> {
    mkdirSync(dataDirectory, { recursive: true });
    // Both packages are ESM-first; load them lazily so production never pays for them.
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const db = await PGlite.create(dataDirectory);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections ?? 64 });
    await server.start();
    const address = server.getServerConn();
    EmbeddedPostgres.logger.log(`embedded PostgreSQL (PGlite) on ${address}, data in ${dataDirectory}`);
    return new EmbeddedPostgres(
      `postgres://postgres@${address}/postgres`,
      () => server.stop(),
      () => db.close(),
    );
  }

  async stop(): Promise<void> {
    await this.stopServer();
    await this.closeDb();
  }
}

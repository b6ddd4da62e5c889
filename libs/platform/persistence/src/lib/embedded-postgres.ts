import { mkdirSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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

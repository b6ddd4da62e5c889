import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, DataSource, Entity, MigrationInterface, PrimaryColumn, QueryRunner } from 'typeorm';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { EmbeddedPostgres, inTransaction, initializeServiceDataSource, serviceDataSourceOptions } from '../src';

@Entity({ name: 'note' })
class NoteEntity {
  @PrimaryColumn({ type: 'varchar' }) id!: string;
  @Column({ type: 'varchar' }) body!: string;
}

class CreateNote1700000000000 implements MigrationInterface {
  name = 'CreateNote1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "notes_svc"."note" ("id" varchar PRIMARY KEY, "body" varchar NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "notes_svc"."note"`);
  }
}

function dataSource(url: string): DataSource {
  return new DataSource(serviceDataSourceOptions({ url, schema: 'notes_svc', entities: [NoteEntity], migrations: [CreateNote1700000000000], poolSize: 2 }));
}

/** The same assertions on both database profiles: one code path, one set of migrations. */
function persistenceContract(open: () => Promise<{ url: string; reopen?: () => Promise<string>; close: () => Promise<void> }>) {
  let target: Awaited<ReturnType<typeof open>>;
  let ds: DataSource;

  beforeAll(async () => {
    target = await open();
    ds = await initializeServiceDataSource(dataSource(target.url));
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await target?.close();
  });

  it('creates the schema, runs migrations into it, and runs them only once', async () => {
    const applied = await ds.query(`SELECT name FROM "notes_svc"."schema_migrations"`);
    expect(applied.map((r: { name: string }) => r.name)).toEqual(['CreateNote1700000000000']);
    await initializeServiceDataSource(ds);
    expect(await ds.query(`SELECT count(*)::int AS n FROM "notes_svc"."schema_migrations"`)).toEqual([{ n: 1 }]);
  });

  it('commits a transaction as a whole and rolls back as a whole', async () => {
    await inTransaction(ds, async (m) => {
      await m.save(NoteEntity, { id: 'n1', body: 'kept' });
      await m.save(NoteEntity, { id: 'n2', body: 'kept' });
    });
    await expect(
      inTransaction(ds, async (m) => {
        await m.save(NoteEntity, { id: 'n3', body: 'lost' });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect((await ds.getRepository(NoteEntity).find({ order: { id: 'ASC' } })).map((n) => n.id)).toEqual(['n1', 'n2']);
  });
}

describe('persistence on embedded PGlite', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'lp-pglite-')), 'pgdata');
  let embedded: EmbeddedPostgres;
  // Registered before the contract's hooks, so it runs after them (afterAll hooks run in reverse).
  afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));
  persistenceContract(async () => {
    embedded = await EmbeddedPostgres.start(dir);
    return { url: embedded.url, close: () => embedded.stop() };
  });

  it('keeps data across a restart on the same data directory', async () => {
    // The contract's own afterAll stops the server; here a second server opens the same directory.
    const first = await EmbeddedPostgres.start(join(dir, '..', 'restart'));
    const ds1 = await initializeServiceDataSource(dataSource(first.url));
    await ds1.getRepository(NoteEntity).save({ id: 'r1', body: 'survives' });
    await ds1.destroy();
    await first.stop();
    const second = await EmbeddedPostgres.start(join(dir, '..', 'restart'));
    const ds2 = await initializeServiceDataSource(dataSource(second.url));
    expect(await ds2.getRepository(NoteEntity).findOneBy({ id: 'r1' })).toEqual({ id: 'r1', body: 'survives' });
    await ds2.destroy();
    await second.stop();
  }, 60_000);
});

describeWithServers(['postgres'], 'persistence on PostgreSQL', () => {
  let db: TestDatabase;
  persistenceContract(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('persist'));
    return { url: db.url, close: () => db.drop() };
  });
});

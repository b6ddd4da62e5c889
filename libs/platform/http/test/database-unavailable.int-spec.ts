import { Controller, Get, INestApplication, Module, Post } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestDatabase, describeWithServers, TcpOutageProxy, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { isDatabaseUnavailable, ProblemDetailsFilter } from '../src';

// A PostgreSQL connection that drops mid-request must read as a retryable outage (503
// Database.Unavailable with Retry-After), not as a 500 InternalError, and leave nothing half-written.
describeWithServers(['postgres'], 'a lost database connection answers 503 Database.Unavailable', () => {
  let db: TestDatabase;
  let proxy: TcpOutageProxy;
  let dataSource: DataSource;
  let app: INestApplication;
  let started: () => void = () => undefined;
  const signalQueryStarted = async () => started();
  /** Cuts the database connection once the request under test is inside its query. */
  const cutDuring = <T>(send: () => PromiseLike<T>): Promise<T> => {
    const inside = new Promise<void>((resolve) => (started = resolve));
    const answer = Promise.resolve(send());
    return inside.then(() => proxy.stop()).then(() => answer);
  };

  @Controller('notes')
  class NotesController {
    @Get()
    async list() {
      return dataSource.query(`SELECT id FROM note ORDER BY id`);
    }

    @Get('slow')
    async slowList() {
      await signalQueryStarted();
      return dataSource.query(`SELECT pg_sleep(2), id FROM note`);
    }

    @Post()
    async create() {
      await dataSource.transaction(async (m) => {
        await m.query(`INSERT INTO note DEFAULT VALUES`);
        await signalQueryStarted();
        await m.query(`SELECT pg_sleep(2)`);
        await m.query(`INSERT INTO note DEFAULT VALUES`);
      });
      return { ok: true };
    }
  }

  @Module({ controllers: [NotesController], providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }] })
  class NotesModule {}

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('dbdown'));
    const target = new URL(db.url);
    proxy = new TcpOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    const viaProxy = new URL(db.url);
    viaProxy.host = proxy.url;
    dataSource = new DataSource({ type: 'postgres', url: viaProxy.toString(), poolSize: 2, connectTimeoutMS: 1_000 });
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE note (id serial PRIMARY KEY)`);
    app = await NestFactory.create(NotesModule, { logger: false });
    await app.init();
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await dataSource?.destroy().catch(() => undefined);
    await proxy?.stop();
    await db?.drop();
  });

  it('a read and a transaction cut mid-query answer 503 Database.Unavailable with Retry-After, nothing is half-written, and service resumes', async () => {
    await request(app.getHttpServer()).post('/notes').expect(201).timeout(10_000);
    started = () => undefined;

    const read = await cutDuring(() => request(app.getHttpServer()).get('/notes/slow'));
    expect(read.status).toBe(503);
    expect(read.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(read.body.code).toBe('Database.Unavailable');
    expect(Number(read.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(read.body)).not.toMatch(/Connection terminated|ECONN/);
    await proxy.start();

    const write = await cutDuring(() => request(app.getHttpServer()).post('/notes'));
    expect(write.status).toBe(503);
    expect(write.body.code).toBe('Database.Unavailable');

    // While the database refuses new connections: still a retryable 503, the address hidden.
    const refused = await request(app.getHttpServer()).get('/notes');
    expect(refused.status).toBe(503);
    expect(JSON.stringify(refused.body)).not.toMatch(/127\.0\.0\.1|ECONN/);

    await proxy.start();
    const deadline = Date.now() + 10_000;
    let rows: { id: number }[] | undefined;
    while (!rows && Date.now() < deadline) {
      const res = await request(app.getHttpServer()).get('/notes');
      if (res.status === 200) rows = res.body;
    }
    expect(rows).toHaveLength(2); // the first create's two rows; the cut transaction left none
  });

  it('recognises pg and TypeORM outage errors, and not statement errors', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable({ name: 'QueryFailedError', driverError: Object.assign(new Error('Connection terminated unexpectedly'), {}) })).toBe(true);
    expect(isDatabaseUnavailable({ name: 'QueryRunnerAlreadyReleasedError', message: 'released' })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('bad'), { code: '22021' }))).toBe(false);
  });
});

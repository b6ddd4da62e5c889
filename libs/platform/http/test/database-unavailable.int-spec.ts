import { Controller, Get, INestApplication, Module, Post } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@lp/platform/persistence';
import { describeWithServers, TcpOutageProxy, testRunId, testServerUrls } from '@lp/platform/testing';
import { isDatabaseUnavailable, ProblemDetailsFilter } from '../src';

// A PostgreSQL connection that drops mid-request must read as a retryable outage (503
// Database.Unavailable with Retry-After), not as a 500 InternalError, and leave nothing half-written.
describeWithServers(['postgres'], 'a lost database connection answers 503 Database.Unavailable', () => {
  let db: TestDatabase;
  let proxy: TcpOutageProxy;
  let dataSource: DataSource;
  let app: INestApplication;

  @Controller('notes')
  class NotesController {
    @Get()
    async list() {
      return dataSource.query(`SELECT id FROM note ORDER BY id`);
    }

    @Post()
    async create() {
      await dataSource.transaction(async (m) => {
        await m.query(`INSERT INTO note DEFAULT VALUES`);
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

  it('reads and writes answer 503 with Retry-After while the connection is cut, nothing is half-written, and service resumes', async () => {
    await request(app.getHttpServer()).post('/notes').expect(201);
    await proxy.stop();

    const read = await request(app.getHttpServer()).get('/notes');
    expect(read.status).toBe(503);
    expect(read.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(read.body.code).toBe('Database.Unavailable');
    expect(Number(read.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(read.body)).not.toMatch(/Connection terminated|ECONN/);

    const write = await request(app.getHttpServer()).post('/notes');
    expect(write.status).toBe(503);
    expect(write.body.code).toBe('Database.Unavailable');

    await proxy.start();
    const deadline = Date.now() + 10_000;
    let rows: { id: number }[] | undefined;
    while (!rows && Date.now() < deadline) {
      const res = await request(app.getHttpServer()).get('/notes');
      if (res.status === 200) rows = res.body;
    }
    expect(rows).toHaveLength(2); // the first create's two rows; the cut one left none
  });

  it('recognises pg and TypeORM outage errors, and not statement errors', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable({ name: 'QueryFailedError', driverError: Object.assign(new Error('Connection terminated unexpectedly'), {}) })).toBe(true);
    expect(isDatabaseUnavailable({ name: 'QueryRunnerAlreadyReleasedError', message: 'released' })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('bad'), { code: '22021' }))).toBe(false);
  });
});

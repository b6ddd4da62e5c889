import { Writable } from 'node:stream';
import pinoHttp from 'pino-http';
import { DataSource, QueryFailedError } from 'typeorm';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { loggerParams } from '../src';

const SECRET = 'v1:secret-ciphertext-do-not-log';

/** The fleet's logger (the settings every service runs with), writing its lines into `lines`. */
function capturedLogger(lines: string[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return pinoHttp(loggerParams('logged-error-test', 'info').pinoHttp as object, sink).logger;
}

describeWithServers(['postgres'], 'a failed statement in the logs', () => {
  let db: TestDatabase;
  let sql: DataSource;
  let failure: QueryFailedError;

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('logged_error'));
    sql = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await sql.query(`CREATE TABLE subscription (callback_url text NOT NULL CHECK (callback_url ~ '^https?://'), secret_ciphertext text NOT NULL)`);
    failure = await sql.query(`INSERT INTO subscription (callback_url, secret_ciphertext) VALUES ($1, $2)`, ['HTTP://127.0.0.1/x', SECRET]).then(
      () => {
        throw new Error('the INSERT was expected to fail');
      },
      (error: QueryFailedError) => error,
    );
  });
  afterAll(async () => {
    await sql?.destroy();
    await db?.drop();
  });

  it('is logged by its statement and SQLSTATE, never by its parameters or the row PostgreSQL quotes', () => {
    expect(failure).toBeInstanceOf(QueryFailedError);
    const lines: string[] = [];
    const logger = capturedLogger(lines);
    logger.error({ err: failure, correlationId: 'c-1' }, 'Unhandled error');
    // The same error as the cause of another, as a service may wrap it.
    logger.error({ err: new Error('subscription not stored', { cause: failure }) }, 'Unhandled error');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain('127.0.0.1/x');
      expect(line).not.toMatch(/parameters|Failing row/);
    }
    const [direct, wrapped] = lines.map((l) => JSON.parse(l) as { err: Record<string, unknown> & { cause?: Record<string, unknown> } });
    expect(direct!.err).toMatchObject({
      type: 'QueryFailedError',
      code: '23514',
      constraint: 'subscription_callback_url_check',
      query: 'INSERT INTO subscription (callback_url, secret_ciphertext) VALUES ($1, $2)',
      message: expect.stringContaining('violates check constraint'),
    });
    expect(wrapped!.err.message).toContain('subscription not stored');
  });
});

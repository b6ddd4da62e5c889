import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { AuthorizationAction, DecisionOutcome, ValidationError } from '@lp/contracts';
import { initializeServiceDataSource, serviceDataSourceOptions } from '@lp/platform/persistence';
import { createTestDatabase, describeWithServers, TcpOutageProxy, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { request, user } from './decision.fixtures';
import { DECISION_AUDIT_MIGRATIONS } from '../src/migrations';
import { DecisionAuditEntry, reasonCodeOf } from '../src/audit/decision-audit-entry';
import { DecisionAuditQuery } from '../src/audit/decision-audit-query';
import { DecisionAuditRecord } from '../src/audit/decision-audit-record.entity';
import { AUDIT_REJECTED_FILE, AUDIT_SPOOL_FILE } from '../src/audit/decision-audit-spool';
import { DecisionAuditWriter, DecisionAuditWriterOptions } from '../src/audit/decision-audit-writer';
import { AuditUnavailableError } from '../src/audit/decision-audit.errors';

const TABLE = '"authz_audit"."decision_audit"';
const BASE_TIME = Date.parse('2026-06-01T12:00:00.000Z');
/** The writer's settings in these tests: a short flush interval, so a flush is quick to wait for. */
const TEST_WRITER_SETTINGS: DecisionAuditWriterOptions = { durability: 'batched', batchSize: 200, flushIntervalMs: 10, maxBacklog: 20_000 };

function dataSourceFor(url: string): DataSource {
  return new DataSource(
    serviceDataSourceOptions({ url, schema: 'authz_audit', entities: [DecisionAuditRecord], migrations: DECISION_AUDIT_MIGRATIONS, poolSize: 4 }),
  );
}

function entry(overrides: Partial<DecisionAuditEntry> = {}): DecisionAuditEntry {
  const outcome = overrides.outcome ?? 'Permit';
  return {
    reasonCode: reasonCodeOf({ outcome, reason: overrides.reason }),
    decisionId: randomUUID(),
    decidedAt: new Date(BASE_TIME),
    tenantId: 't1',
    callerKind: 'user',
    subject: 'alice',
    action: 'View',
    module: 'cases',
    resourceType: 'case',
    resourceId: 'case-1',
    resourceFacts: { status: 'open', amount: 12.5, owner: 'alice' },
    outcome: 'Permit',
    evaluations: [
      { evaluator: 'RBAC', verdict: 'Allow', reason: 'role case-worker' },
      { evaluator: 'ABAC', verdict: 'Neutral', reason: 'no rule matched' },
    ],
    cached: false,
    latencyMs: 1.25,
    correlationId: 'corr-1',
    revisions: { tenantPolicy: 3, subject: 1, featureGlobal: 0, featureTenant: 0, rebac: 2 },
    ...overrides,
  };
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describeWithServers(['postgres'], 'decision audit on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const writers: DecisionAuditWriter[] = [];
  const extraDataSources: DataSource[] = [];
  const tempDirs: string[] = [];

  function tempDir(label: string): string {
    const dir = mkdtempSync(join(tmpdir(), label));
    tempDirs.push(dir);
    return dir;
  }

  /**
   * A writer on the test settings: batched durability unless the test asks for strict. A batched
   * `record` only enqueues and answers undefined, never a promise, so the tests call it as
   * `void w.record(...)`: there is nothing to await or handle (strict tests await its answer).
   */
  function writer(options: Partial<DecisionAuditWriterOptions> = {}, dataSource: DataSource = ds): DecisionAuditWriter {
    const w = new DecisionAuditWriter(dataSource, { ...TEST_WRITER_SETTINGS, retryInitialDelayMs: 10, retryMaxDelayMs: 50, ...options });
    writers.push(w);
    return w;
  }

  async function extraDataSource(url = db.url): Promise<DataSource> {
    const extra = await dataSourceFor(url).initialize();
    extraDataSources.push(extra);
    return extra;
  }

  async function rowIds(): Promise<string[]> {
    const rows: { decision_id: string }[] = await ds.query(`SELECT "decision_id" FROM ${TABLE}`);
    return rows.map((r) => r.decision_id);
  }

  /** The table is gone for the writer: statements fail with 42P01, as in an outage of the table. */
  const takeTableAway = () => ds.query(`ALTER TABLE ${TABLE} RENAME TO "decision_audit_away"`);
  const bringTableBack = () => ds.query(`ALTER TABLE "authz_audit"."decision_audit_away" RENAME TO "decision_audit"`);

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('audit'));
    ds = await initializeServiceDataSource(dataSourceFor(db.url));
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    await ds.query(`TRUNCATE ${TABLE}`);
  });

  afterEach(async () => {
    await Promise.all(writers.splice(0).map((w) => w.close({ timeoutMs: 0 })));
    await Promise.all(
      extraDataSources
        .splice(0)
        .filter((d) => d.isInitialized)
        .map((d) => d.destroy()),
    );
    jest.restoreAllMocks();
  });

  describe('migration', () => {
    it('creates the table with its tenant-first indexes and json document columns in authz_audit, and reverts step by step', async () => {
      const indexes: { indexname: string; indexdef: string }[] = await ds.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'authz_audit' AND tablename = 'decision_audit' ORDER BY indexname`,
      );
      expect(indexes.map((i) => i.indexname)).toEqual([
        'IX_decision_audit_tenant_caller_kind_decided_at',
        'IX_decision_audit_tenant_correlation_id',
        'IX_decision_audit_tenant_decided_at',
        'IX_decision_audit_tenant_outcome_decided_at',
        'IX_decision_audit_tenant_subject_decided_at',
        'decision_audit_pkey',
      ]);
      expect(indexes[2]!.indexdef).toContain('(tenant_id, decided_at DESC)');
      expect(indexes[1]!.indexdef).toContain('(tenant_id, correlation_id) WHERE (correlation_id IS NOT NULL)');
      const documentTypes = `SELECT column_name AS "column", data_type AS "type" FROM information_schema.columns
        WHERE table_schema = 'authz_audit' AND table_name = 'decision_audit' AND data_type LIKE 'json%' ORDER BY column_name`;
      const documents = (type: string) => ['evaluations', 'resource_facts', 'revisions'].map((column) => ({ column, type }));
      expect(await ds.query(documentTypes)).toEqual(documents('json'));

      const kind = async () => (await ds.query(`SELECT relkind FROM pg_class WHERE oid = to_regclass('authz_audit.decision_audit')`))[0]?.relkind;
      expect(await kind()).toBe('p'); // partitioned by month of decided_at

      // The reason code and its indexes go with their migration, on every partition.
      const columns = async () =>
        (await ds.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'authz_audit' AND table_name = 'decision_audit'`)).map(
          (c: { column_name: string }) => c.column_name,
        );
      expect(await columns()).toEqual(expect.arrayContaining(['reason_code', 'reason']));
      await ds.undoLastMigration({ transaction: 'each' });
      expect(await columns()).not.toContain('reason_code');
      expect((await ds.query(`SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = 'authz_audit' AND indexname LIKE '%caller_kind%'`))[0].n).toBe(0);

      // Rows written before the partitioning survive it, in the month partitions or the default one.
      await ds.undoLastMigration({ transaction: 'each' });
      expect(await kind()).toBe('r');
      const old = [entry({ decidedAt: new Date('2019-03-04T05:06:07.000Z') }), entry()];
      for (const e of old) {
        await ds.query(
          `INSERT INTO ${TABLE} (decision_id, decided_at, tenant_id, caller_kind, subject, action, module, resource_type, outcome, evaluations, cached, latency_ms)
           VALUES ($1, $2, 't1', 'user', 'alice', 'View', 'cases', 'case', 'Permit', '[]', false, 1)`,
          [e.decisionId, e.decidedAt],
        );
      }
      await ds.undoLastMigration({ transaction: 'each' });
      expect(await ds.query(documentTypes)).toEqual(documents('jsonb'));
      await ds.runMigrations({ transaction: 'each' });
      expect(await kind()).toBe('p');
      expect((await rowIds()).sort()).toEqual(old.map((e) => e.decisionId).sort());
      const [{ partition }] = await ds.query(`SELECT tableoid::regclass::text AS partition FROM ${TABLE} WHERE decision_id = $1`, [old[0]!.decisionId]);
      expect(partition).toBe('authz_audit.decision_audit_p201903');

      expect(await columns()).toEqual(expect.arrayContaining(['reason_code', 'reason']));
      for (let i = 0; i < 4; i++) await ds.undoLastMigration({ transaction: 'each' });
      expect(await ds.query(`SELECT to_regclass('authz_audit.decision_audit') AS t`)).toEqual([{ t: null }]);
      await ds.runMigrations({ transaction: 'each' });
      expect(await ds.query(`SELECT to_regclass('authz_audit.decision_audit')::text AS t`)).toEqual([{ t: 'authz_audit.decision_audit' }]);
      expect(await ds.query(documentTypes)).toEqual(documents('json'));
    });
  });

  describe('DecisionAuditWriter', () => {
    it('enqueues without I/O and writes everything in full batches', async () => {
      const query = jest.spyOn(ds, 'query');
      const w = writer({ batchSize: 50 });
      await w.start();
      const entries = Array.from({ length: 230 }, (_, i) => entry({ decidedAt: new Date(BASE_TIME + i) }));

      for (const e of entries) void w.record(e);
      expect(query).not.toHaveBeenCalled();
      expect(w.backlog()).toBe(230);

      await waitUntil(() => w.backlog() === 0);
      const inserts = query.mock.calls.filter(([sql]) => String(sql).startsWith('INSERT'));
      expect(inserts).toHaveLength(5); // 50 + 50 + 50 + 50 + 30
      expect((await rowIds()).sort()).toEqual(entries.map((e) => e.decisionId).sort());
      expect(w.stats()).toEqual(expect.objectContaining({ backlog: 0, written: 230, rejected: 0, consecutiveFailures: 0 }));
    });

    it('leaves what arrives during a background write for the next tick, not for a batch of its own', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const query = jest.spyOn(ds, 'query');
      const w = writer({ flushIntervalMs: 60_000, batchSize: 20 });
      await w.start();
      query.mockImplementationOnce(async (...args: Parameters<DataSource['query']>) => {
        await held; // the first INSERT takes a while
        return DataSource.prototype.query.apply(ds, args);
      });
      for (let i = 0; i < 20; i++) void w.record(entry()); // a full batch: the flusher starts at once
      await waitUntil(() => query.mock.calls.length === 1);
      for (let i = 0; i < 5; i++) void w.record(entry()); // arrive while it is written
      release();
      await waitUntil(() => w.backlog() === 5);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(query.mock.calls.filter(([sql]) => String(sql).startsWith('INSERT'))).toHaveLength(1);
      expect(w.backlog()).toBe(5);

      for (let i = 0; i < 15; i++) void w.record(entry()); // a full batch again: written without waiting for the tick
      await waitUntil(() => w.backlog() === 0);
      expect(query.mock.calls.filter(([sql]) => String(sql).startsWith('INSERT'))).toHaveLength(2);
      expect(await rowIds()).toHaveLength(40);
    });

    it('writes a batch of any size in one statement (past the 65,535 parameters a row-per-placeholder INSERT could carry)', async () => {
      const query = jest.spyOn(ds, 'query');
      const w = writer({ batchSize: 5000 });
      const entries = Array.from({ length: 4000 }, () => entry());
      for (const e of entries) void w.record(e);
      await w.flush();
      expect(query.mock.calls.filter(([sql]) => String(sql).startsWith('INSERT'))).toHaveLength(1);
      expect(await rowIds()).toHaveLength(4000);
    });

    it('keeps text exactly through the column arrays: quotes, backslashes, braces, commas, "NULL", unicode', async () => {
      const w = writer();
      const awkward = ['say "hi"', 'back\\slash', '{a,b}', 'NULL', 'zürich ⚖ 法', ' padded ', ''];
      const entries = awkward.map((text) =>
        entry({ subject: text, resourceId: text, evaluations: [{ evaluator: 'RBAC', verdict: 'Allow', reason: text }], resourceFacts: { owner: text } }),
      );
      for (const e of entries) void w.record(e);
      await w.flush();
      const rows: Array<{ decision_id: string; subject: string; resource_id: string; evaluations: unknown; resource_facts: unknown }> = await ds.query(
        `SELECT decision_id, subject, resource_id, evaluations, resource_facts FROM ${TABLE}`,
      );
      for (const e of entries) {
        const row = rows.find((r) => r.decision_id === e.decisionId);
        expect(row).toEqual({
          decision_id: e.decisionId,
          subject: e.subject,
          resource_id: e.resourceId,
          evaluations: e.evaluations,
          resource_facts: e.resourceFacts,
        });
      }
    });

    it('records what the entry held when recorded: later changes to the caller’s objects do not reach the row', async () => {
      const w = writer();
      const e = entry();
      void w.record(e);
      e.evaluations[0]!.reason = 'changed';
      e.resourceFacts.owner = 'mallory';
      e.revisions!.tenantPolicy = 99;
      await w.flush();
      const [row] = await ds.query(`SELECT evaluations, resource_facts, revisions FROM ${TABLE}`);
      expect(row.evaluations[0].reason).toBe('role case-worker');
      expect(row.resource_facts.owner).toBe('alice');
      expect(row.revisions.tenantPolicy).toBe(3);
    });

    it('writes every field as recorded', async () => {
      const w = writer();
      const e = entry({ callerKind: 'delegated', actor: 'bob', clientId: 'portal', outcome: 'Deny', failure: 'PolicyStoreUnavailable', cached: true });
      void w.record(e);
      await w.flush();

      const [row] = await ds.query(`SELECT * FROM ${TABLE}`);
      expect(row).toEqual({
        decision_id: e.decisionId,
        decided_at: new Date(BASE_TIME),
        tenant_id: 't1',
        caller_kind: 'delegated',
        subject: 'alice',
        client_id: 'portal',
        actor: 'bob',
        action: 'View',
        module: 'cases',
        resource_type: 'case',
        resource_id: 'case-1',
        resource_facts: { status: 'open', amount: 12.5, owner: 'alice' },
        outcome: 'Deny',
        reason_code: 'AnyDeny',
        reason: null,
        evaluations: e.evaluations,
        cached: true,
        latency_ms: 1.25,
        correlation_id: 'corr-1',
        revisions: e.revisions,
        failure: 'PolicyStoreUnavailable',
      });
    });

    it('builds the entry from a request and its result', async () => {
      const w = writer({ clock: () => new Date(BASE_TIME) });
      const req = { ...request(user('alice', { clientId: 'web' }), AuthorizationAction.Update, { resourceId: 'c-9', amount: 5 }), correlationId: 'c-42' };
      const decisionId = randomUUID();
      void w.record(
        req,
        {
          outcome: 'NoMatchingPolicy',
          permitted: false,
          decisionId,
          evaluations: [{ evaluator: 'RBAC', verdict: 'Neutral', reason: 'permission absent', obligations: ['x'] }],
          obligations: [],
          dataScope: { kind: 'none', tenantId: 't1' },
          cached: false,
        },
        3.5,
      );
      await w.flush();

      const { items } = await new DecisionAuditQuery(ds).query({ tenantId: 't1', pageIndex: 0, pageSize: 10 });
      expect(items).toEqual([
        expect.objectContaining({
          decisionId,
          decidedAt: new Date(BASE_TIME).toISOString(),
          subject: 'alice',
          clientId: 'web',
          action: 'Update',
          resourceId: 'c-9',
          resourceFacts: { amount: 5 },
          outcome: 'NoMatchingPolicy',
          evaluations: [{ evaluator: 'RBAC', verdict: 'Neutral', reason: 'permission absent' }],
          latencyMs: 3.5,
          correlationId: 'c-42',
          revisions: null,
          failure: null,
        }),
      ]);
    });

    it('refuses an entry PostgreSQL could never take, at once', () => {
      const w = writer();
      expect(() => w.record(entry({ decisionId: 'not-a-uuid' }))).toThrow(TypeError);
      expect(() => w.record(entry({ decidedAt: new Date('nope') }))).toThrow(TypeError);
      expect(w.backlog()).toBe(0);
    });

    it('keeps records through an outage of the table and writes them once it is back', async () => {
      const w = writer({ batchSize: 10 });
      await w.start();
      const before = Array.from({ length: 25 }, () => entry());
      await takeTableAway();
      try {
        for (const e of before) void w.record(e);
        await expect(w.flush()).rejects.toThrow();
        expect(w.backlog()).toBe(25);
        expect(w.stats().consecutiveFailures).toBeGreaterThanOrEqual(1);
        await sleep(60); // the background flusher keeps failing meanwhile
        const during = Array.from({ length: 15 }, () => entry());
        for (const e of during) void w.record(e);
        expect(w.backlog()).toBe(40);
      } finally {
        await bringTableBack();
      }
      await waitUntil(() => w.backlog() === 0);
      const ids = await rowIds();
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      expect(w.stats()).toEqual(expect.objectContaining({ written: 40, consecutiveFailures: 0 }));
    });

    it('keeps records while its DataSource is down and writes them once it is re-initialized', async () => {
      const own = await extraDataSource();
      const w = writer({}, own);
      await w.start();
      await own.destroy();
      const entries = Array.from({ length: 12 }, () => entry());
      for (const e of entries) void w.record(e);
      await expect(w.flush()).rejects.toThrow();
      expect(w.backlog()).toBe(12);

      await own.initialize();
      await waitUntil(() => w.backlog() === 0);
      expect((await rowIds()).sort()).toEqual(entries.map((e) => e.decisionId).sort());
    });

    it('rides out a network outage of the database', async () => {
      const target = new URL(testServerUrls.postgres);
      const proxy = new TcpOutageProxy({ host: target.hostname, port: Number(target.port || 5432) });
      await proxy.start();
      try {
        const url = new URL(db.url);
        url.host = proxy.url;
        const w = writer({}, await extraDataSource(url.toString()));
        await w.start();
        void w.record(entry());
        await waitUntil(() => w.backlog() === 0);

        await proxy.stop();
        const entries = Array.from({ length: 20 }, () => entry());
        for (const e of entries) void w.record(e);
        await expect(w.flush()).rejects.toThrow();
        await proxy.start();

        await waitUntil(() => w.backlog() === 0);
        expect(await rowIds()).toHaveLength(21);
      } finally {
        await proxy.stop();
      }
    });

    it('never duplicates a batch written but reported as failed, nor a record given twice', async () => {
      const w = writer();
      const real = ds.query.bind(ds);
      let lostAcks = 2;
      jest.spyOn(ds, 'query').mockImplementation(async (sql, params) => {
        const result = await real(sql, params);
        // The commit happened but the answer never arrived (a connection cut after COMMIT).
        if (sql.startsWith('INSERT') && lostAcks-- > 0) throw new Error('Connection terminated unexpectedly');
        return result;
      });
      const entries = Array.from({ length: 30 }, () => entry());
      for (const e of entries) void w.record(e);
      void w.record({ ...entries[0]! });

      await expect(w.flush()).rejects.toThrow('Connection terminated');
      await expect(w.flush()).rejects.toThrow('Connection terminated');
      await w.flush();

      const ids = await rowIds();
      expect(ids).toHaveLength(30);
      expect(ids.sort()).toEqual(entries.map((e) => e.decisionId).sort());
      expect(w.stats()).toEqual(expect.objectContaining({ rejected: 0, backlog: 0 }));
    });

    it('stores an answered decision whose text PostgreSQL cannot hold (NUL, lone surrogate) escaped, never drops it', async () => {
      const w = writer({ batchSize: 100 });
      const nul = entry({ subject: 'nul\u0000byte', resourceId: 'half\ud800' });
      const good = Array.from({ length: 4 }, () => entry());
      for (const e of [good[0]!, nul, ...good.slice(1)]) void w.record(e);
      await w.flush();
      expect((await rowIds()).sort()).toEqual([...good, nul].map((e) => e.decisionId).sort());
      const [row] = await ds.query(`SELECT subject, resource_id FROM ${TABLE} WHERE decision_id = $1`, [nul.decisionId]);
      expect(row).toEqual({ subject: 'nul\\u0000byte', resource_id: 'half\ufffd' });
      expect(w.stats()).toEqual(expect.objectContaining({ written: 5, rejected: 0, escaped: 1 }));
    });

    it('sets aside a record PostgreSQL refuses for its content even escaped, and writes the rest of its batch', async () => {
      const spoolDirectory = tempDir('lp-audit-');
      const w = writer({ spoolDirectory, batchSize: 100 });
      const poison = entry({ subject: null as never }); // NOT NULL: no escaping can store it
      const good = Array.from({ length: 9 }, () => entry());
      for (const e of [...good.slice(0, 4), poison, ...good.slice(4)]) void w.record(e);

      await w.flush();

      expect((await rowIds()).sort()).toEqual(good.map((e) => e.decisionId).sort());
      expect(w.backlog()).toBe(0);
      expect(w.stats()).toEqual(expect.objectContaining({ written: 9, rejected: 1 }));
      expect(w.rejected().map((e) => e.decisionId)).toEqual([poison.decisionId]);
      const kept = readFileSync(join(spoolDirectory, AUDIT_REJECTED_FILE), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(kept).toEqual([
        expect.objectContaining({ reason: expect.stringMatching(/^23/), entry: expect.objectContaining({ decisionId: poison.decisionId }) }),
      ]);
    });

    it('refuses records while the backlog is at its bound, and takes them again once it drains', async () => {
      const w = writer({ maxBacklog: 5 });
      await w.start();
      await takeTableAway();
      try {
        for (let i = 0; i < 5; i++) void w.record(entry());
        expect(w.canAccept()).toBe(false);
        expect(() => w.record(entry())).toThrow(AuditUnavailableError);
        expect(() => w.record(entry())).toThrow(expect.objectContaining({ code: 'AuditUnavailable' }));
        expect(w.backlog()).toBe(5);
      } finally {
        await bringTableBack();
      }
      await waitUntil(() => w.canAccept());
      void w.record(entry());
      await w.flush();
      expect(await rowIds()).toHaveLength(6);
    });

    it('close() drains everything, then refuses new records', async () => {
      const w = writer({ flushIntervalMs: 60_000, batchSize: 100 });
      await w.start();
      for (let i = 0; i < 450; i++) void w.record(entry());

      await expect(w.close()).resolves.toEqual({ remaining: 0, spooled: 0 });

      expect(await rowIds()).toHaveLength(450);
      expect(w.canAccept()).toBe(false);
      expect(() => w.record(entry())).toThrow(AuditUnavailableError);
    });

    it('close() retries until the database is back within its deadline', async () => {
      const w = writer();
      await w.start();
      await takeTableAway();
      for (let i = 0; i < 7; i++) void w.record(entry());
      const closed = w.close({ timeoutMs: 5_000 });
      await sleep(100);
      await bringTableBack();

      await expect(closed).resolves.toEqual({ remaining: 0, spooled: 0 });
      expect(await rowIds()).toHaveLength(7);
    });

    it('close() past its deadline leaves the rest in the spool file, and the next start writes it', async () => {
      const spoolDirectory = tempDir('lp-audit-');
      const first = writer({ spoolDirectory });
      await first.start();
      const entries = Array.from({ length: 8 }, () => entry());
      await takeTableAway();
      try {
        for (const e of entries) void first.record(e);
        await expect(first.close({ timeoutMs: 50 })).resolves.toEqual({ remaining: 8, spooled: 8 });
      } finally {
        await bringTableBack();
      }

      const next = writer({ spoolDirectory });
      await next.start();
      await waitUntil(() => next.backlog() === 0);
      expect((await rowIds()).sort()).toEqual(entries.map((e) => e.decisionId).sort());
      expect(existsSync(join(spoolDirectory, AUDIT_SPOOL_FILE))).toBe(false);
    });

    it('loses nothing when the process crashes during an outage: the spool file is replayed, once', async () => {
      const crashedDirectory = tempDir('lp-audit-crashed-');
      const restartDirectory = tempDir('lp-audit-restart-');
      const own = await extraDataSource();
      const crashed = writer({ spoolDirectory: crashedDirectory }, own);
      await crashed.start();
      await own.destroy();
      const entries = Array.from({ length: 25 }, () => entry());
      for (const e of entries.slice(0, 10)) void crashed.record(e);
      await waitUntil(() => crashed.stats().spooled === 10); // spooled at the first failed attempt
      for (const e of entries.slice(10)) void crashed.record(e);
      await waitUntil(() => crashed.stats().spooled === 25); // and what came in during the outage, at the next

      // The crash: the disk as it is now, with the last append cut short, is all the next process gets.
      mkdirSync(restartDirectory, { recursive: true });
      copyFileSync(join(crashedDirectory, AUDIT_SPOOL_FILE), join(restartDirectory, AUDIT_SPOOL_FILE));
      appendFileSync(join(restartDirectory, AUDIT_SPOOL_FILE), `{"decisionId":"${randomUUID()}","tenantId":"t`);
      const secondCopy = tempDir('lp-audit-again-');
      copyFileSync(join(restartDirectory, AUDIT_SPOOL_FILE), join(secondCopy, AUDIT_SPOOL_FILE));

      const restarted = writer({ spoolDirectory: restartDirectory });
      await restarted.start();
      expect(restarted.backlog()).toBe(25);
      await restarted.flush();
      expect((await rowIds()).sort()).toEqual(entries.map((e) => e.decisionId).sort());
      expect(existsSync(join(restartDirectory, AUDIT_SPOOL_FILE))).toBe(false);

      // A crash after the INSERT but before the file was removed: replaying it again adds nothing.
      const again = writer({ spoolDirectory: secondCopy });
      await again.start();
      await again.flush();
      expect(await rowIds()).toHaveLength(25);
    });

    it('loses and duplicates nothing under load through repeated outages', async () => {
      const w = writer({ batchSize: 64, spoolDirectory: tempDir('lp-audit-') });
      await w.start();
      const recorded: string[] = [];
      let outages = 0;
      for (let round = 0; round < 4; round++) {
        if (round % 2 === 1) await takeTableAway();
        for (let i = 0; i < 300; i++) {
          const e = entry({ decidedAt: new Date(BASE_TIME + recorded.length) });
          void w.record(e);
          recorded.push(e.decisionId);
          if (i % 50 === 0) await sleep(5);
        }
        if (round % 2 === 1) {
          await waitUntil(() => w.stats().consecutiveFailures > 0);
          outages++;
          await bringTableBack();
        }
      }
      await w.close();
      const ids = await rowIds();
      expect(ids).toHaveLength(recorded.length);
      expect(new Set(ids)).toEqual(new Set(recorded));
      expect(outages).toBe(2);
      expect(w.stats()).toEqual(expect.objectContaining({ written: recorded.length, rejected: 0 }));
    });
  });

  describe('DecisionAuditQuery', () => {
    const at = (minutes: number) => new Date(BASE_TIME + minutes * 60_000);
    let query: DecisionAuditQuery;
    let seeded: DecisionAuditEntry[];

    beforeEach(async () => {
      query = new DecisionAuditQuery(ds);
      const outcomes: DecisionOutcome[] = ['Permit', 'Deny', 'NoMatchingPolicy'];
      seeded = [
        ...Array.from({ length: 12 }, (_, i) => entry({ tenantId: 't1', subject: i % 2 === 0 ? 'alice' : 'bob', outcome: outcomes[i % 3], decidedAt: at(i) })),
        ...Array.from({ length: 5 }, (_, i) => entry({ tenantId: 't2', subject: 'alice', outcome: 'Permit', decidedAt: at(i) })),
      ];
      const w = writer();
      for (const e of seeded) void w.record(e);
      await w.flush();
    });

    const idsOf = (entries: DecisionAuditEntry[]) => entries.map((e) => e.decisionId);
    const newestFirst = (entries: DecisionAuditEntry[]) => [...entries].sort((a, b) => b.decidedAt.getTime() - a.decidedAt.getTime());

    it('pages one tenant’s records newest first with the total', async () => {
      const t1 = newestFirst(seeded.filter((e) => e.tenantId === 't1'));
      const first = await query.query({ tenantId: 't1', pageIndex: 0, pageSize: 5 });
      const third = await query.query({ tenantId: 't1', pageIndex: 2, pageSize: 5 });
      expect(first).toEqual(expect.objectContaining({ pageIndex: 0, pageSize: 5, totalCount: 12 }));
      expect(first.items.map((i) => i.decisionId)).toEqual(idsOf(t1.slice(0, 5)));
      expect(third.items.map((i) => i.decisionId)).toEqual(idsOf(t1.slice(10)));
      await expect(query.query({ tenantId: 't1', pageIndex: 3, pageSize: 5 })).resolves.toEqual(expect.objectContaining({ items: [], totalCount: 12 }));
    });

    it('filters by subject, outcome and a half-open time window', async () => {
      const result = await query.query({ tenantId: 't1', subject: 'alice', outcome: 'Permit', pageIndex: 0, pageSize: 100 });
      const expected = newestFirst(seeded.filter((e) => e.tenantId === 't1' && e.subject === 'alice' && e.outcome === 'Permit'));
      expect(result.items.map((i) => i.decisionId)).toEqual(idsOf(expected));
      expect(result.totalCount).toBe(expected.length);

      const window = await query.query({ tenantId: 't1', from: at(3), to: at(6).toISOString(), pageIndex: 0, pageSize: 100 });
      expect(window.items.map((i) => i.decidedAt)).toEqual([at(5), at(4), at(3)].map((d) => d.toISOString()));
    });

    it('filters by caller kind, client, module, resource type, action, reason code, correlation id and decision id, all together', async () => {
      const kinds = [
        entry({
          tenantId: 't4',
          callerKind: 'application',
          subject: 'operations-scheduler',
          clientId: 'operations-scheduler',
          module: 'operations',
          resourceType: 'jobs',
          action: 'Manage',
          correlationId: 'job-1',
        }),
        entry({
          tenantId: 't4',
          callerKind: 'delegated',
          subject: 'dora',
          actor: 'dan',
          action: 'Approve',
          outcome: 'Deny',
          reason: 'DelegationNotCovered: not covered',
          correlationId: 'corr-d',
        }),
        entry({ tenantId: 't4', callerKind: 'user', subject: 'ursula', outcome: 'NoMatchingPolicy', correlationId: 'corr-u' }),
        entry({
          tenantId: 't2',
          callerKind: 'application',
          clientId: 'operations-scheduler',
          module: 'operations',
          resourceType: 'jobs',
          action: 'Manage',
          correlationId: 'job-1',
        }),
      ];
      const w = writer();
      for (const e of kinds) void w.record(e);
      await w.flush();
      const [app, delegated, person] = kinds.map((e) => e.decisionId);
      const ids = async (filter: object) => (await query.query({ tenantId: 't4', ...filter, pageIndex: 0, pageSize: 100 })).items.map((i) => i.decisionId);
      expect(await ids({ callerKind: 'application' })).toEqual([app]);
      expect(await ids({ callerKind: 'user' })).toEqual([person]);
      expect(await ids({ clientId: 'operations-scheduler', module: 'operations', resourceType: 'jobs', action: 'Manage' })).toEqual([app]);
      expect(await ids({ module: 'operations', action: 'View' })).toEqual([]);
      expect(await ids({ reasonCode: 'DelegationNotCovered' })).toEqual([delegated]);
      expect(await ids({ reasonCode: 'AllNeutral' })).toEqual([person]);
      expect(await ids({ correlationId: 'job-1' })).toEqual([app]);
      expect(await ids({ decisionId: delegated })).toEqual([delegated]);
      // Another tenant's record is not found by its id.
      expect(await ids({ decisionId: kinds[3]?.decisionId })).toEqual([]);
      const [record] = (await query.query({ tenantId: 't4', decisionId: delegated, pageIndex: 0, pageSize: 1 })).items;
      expect(record).toEqual(
        expect.objectContaining({ callerKind: 'delegated', actor: 'dan', reasonCode: 'DelegationNotCovered', reason: 'DelegationNotCovered: not covered' }),
      );
    });

    it('never returns another tenant’s records, whatever the filters', async () => {
      for (const params of [{}, { subject: 'alice' }, { outcome: 'Permit' as const }, { from: at(0), to: at(100) }]) {
        const result = await query.query({ tenantId: 't2', ...params, pageIndex: 0, pageSize: 100 });
        expect(result.items.every((i) => i.tenantId === 't2')).toBe(true);
        expect(result.totalCount).toBe(5);
      }
      await expect(query.query({ tenantId: 't3', pageIndex: 0, pageSize: 100 })).resolves.toEqual(expect.objectContaining({ items: [], totalCount: 0 }));
    });

    it.each([
      [{ tenantId: '' }, 'tenantId'],
      [{ pageIndex: -1 }, 'pageIndex'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ outcome: 'Maybe' as DecisionOutcome }, 'outcome'],
      [{ from: 'yesterday' }, 'from'],
      [{ callerKind: 'robot' as never }, 'callerKind'],
      [{ action: 'view' as never }, 'action'],
      [{ reasonCode: 'Because' as never }, 'reasonCode'],
      [{ decisionId: 'not-a-uuid' }, 'decisionId'],
      [{ module: 42 as never }, 'module'],
    ])('refuses %j', async (bad, field) => {
      const attempt = query.query({ tenantId: 't1', pageIndex: 0, pageSize: 10, ...bad });
      await expect(attempt).rejects.toThrow(ValidationError);
      await expect(attempt).rejects.toEqual(expect.objectContaining({ errors: expect.objectContaining({ [field]: expect.any(Array) }) }));
    });
  });

  describe('strict durability (AUDIT_DURABILITY=strict)', () => {
    it('answers only once the record is in the journal, writes it to the table, then empties the journal', async () => {
      const spoolDirectory = tempDir('lp-audit-strict-');
      const w = writer({ durability: 'strict', spoolDirectory, flushIntervalMs: 60_000 });
      await w.start();
      const e = entry();
      const durable = w.record(e);
      expect(durable).toBeInstanceOf(Promise);
      await durable;
      const journal = join(spoolDirectory, AUDIT_SPOOL_FILE);
      expect(readFileSync(journal, 'utf8')).toContain(e.decisionId);
      expect(await rowIds()).toEqual([]); // the flush interval has not come: on disk, not yet in the table
      await w.flush();
      expect(await rowIds()).toEqual([e.decisionId]);
      await waitUntil(() => readFileSync(journal, 'utf8') === '');
    });

    it('group-commits: 500 concurrent records take far fewer fdatasyncs than records', async () => {
      const w = writer({ durability: 'strict', spoolDirectory: tempDir('lp-audit-group-'), flushIntervalMs: 60_000 });
      await w.start();
      // Strict: each answer is the promise of its journal write (see the test above).
      await Promise.all(Array.from({ length: 500 }, () => w.record(entry())!));
      const commits = w.stats().journalCommits ?? 0;
      expect(commits).toBeGreaterThan(0);
      expect(commits).toBeLessThan(50);
      await w.flush();
      expect((await rowIds()).length).toBe(500);
    });

    it('refuses (fails closed) when the journal cannot be written, and keeps nothing of that record', async () => {
      const spoolDirectory = join(tempDir('lp-audit-blocked-'), 'spool');
      const w = writer({ durability: 'strict', spoolDirectory, flushIntervalMs: 60_000 });
      await w.start();
      // The disk goes away under the running writer: its directory is now a plain file.
      rmSync(spoolDirectory, { recursive: true, force: true });
      appendFileSync(spoolDirectory, 'x');
      await expect(w.record(entry())).rejects.toBeInstanceOf(AuditUnavailableError);
      expect(w.backlog()).toBe(0);
    });

    it('needs a spool directory for its journal', () => {
      expect(() => new DecisionAuditWriter(ds, { ...TEST_WRITER_SETTINGS, durability: 'strict' })).toThrow(/spool directory/);
    });
  });
});

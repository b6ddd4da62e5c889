import { DataSource } from 'typeorm';
import { AnyRpcContract, CasesRpc, LitigationCase, MATTER_NUMBER_PATTERN, TrustedCaller } from '@lp/contracts';
import { RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { CASE_OWNER_CONSUMER, CaseOwnerRelationListener } from '@lp/service/policy-management';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem, signedRequests } from '../support/policy-platform';

const CASES = '/api/cases';
const VIEW = 'cases.case.view';
const CREATE = 'cases.case.create';
const body = (change: Record<string, unknown> = {}) => ({
  title: 'Acme v. Globex',
  caseType: 'commercial',
  claimAmount: 125000.5,
  defendantName: 'Globex Corporation',
  ...change,
});
const sequenceOf = (matterNumber: string) => Number(matterNumber.split('-')[2]);

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'case-management: litigation cases over HTTP and RPC', () => {
  const platform = new OperationsTestPlatform('cases');
  let cases: DataSource;
  let rpc: RpcClient;
  const year = new Date().getUTCFullYear();

  const as = (sub: string, tenantId = 'default') => signedRequests(platform.service('case-management').http, platform.token({ sub, tenantId }));
  const caller = (subject: string, tenantId = 'default'): TrustedCaller => ({ kind: 'user', subject, tenantId, scopes: [], claimsDigest: subject });
  /** What the RPC call answers: the reply, or the problem it was refused with. */
  const call = <C extends AnyRpcContract>(contract: C, subject: string, payload: unknown, tenantId = 'default') =>
    rpc.call(contract, { caller: caller(subject, tenantId), payload } as never).then(
      (reply) => ({ reply: reply as LitigationCase, problem: undefined }),
      (error: unknown) => {
        if (!(error instanceof RpcRemoteError)) throw error;
        return { reply: undefined, problem: error.problem };
      },
    );
  /** Everything a create writes, in both services: nothing of it may appear after a refusal. */
  const written = async () => ({
    cases: Number((await cases.query(`SELECT count(*)::int AS n FROM cases.litigation_case`))[0].n),
    sequences: Number((await cases.query(`SELECT coalesce(sum(last_value), 0)::int AS n FROM cases.matter_sequence`))[0].n),
    outbox: Number((await cases.query(`SELECT count(*)::int AS n FROM cases.outbox_message`))[0].n),
  });

  /** A role named `name` in `tenantId` holding `codes` with `dataScope`, bound to `subject`. */
  async function role(tenantId: string, subject: string, name: string, codes: string[], dataScope = 'tenant') {
    await platform.sql.query(`INSERT INTO authz.role (tenant_id, name, data_scope) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, name) DO NOTHING`, [
      tenantId,
      name,
      dataScope,
    ]);
    await platform.grantRole(tenantId, subject, name, codes);
  }

  beforeAll(async () => {
    await platform.start();
    cases = platform.service('case-management').app.get(DataSource);
    rpc = platform.policy.app.get(RpcClient);
    await role('default', 'carla', 'case-clerk', [VIEW, CREATE]);
    await role('default', 'oscar', 'own-case-clerk', [VIEW, CREATE], 'own');
    await role('default', 'cora', 'case-intake', [CREATE]);
    await role('acme', 'alice', 'case-clerk', [VIEW, CREATE]);
  }, 120_000);
  afterAll(() => platform.stop());

  describe('creating and reading', () => {
    let created: LitigationCase;

    it('creates an open case owned by the caller, with a matter number LIT-{year}-{sequence} and the default currency', async () => {
      const res = await as('carla')
        .post(CASES)
        .send(body({ title: '  Acme v. Globex  ', officeId: 'paris' }))
        .expect(201);
      created = res.body as LitigationCase;
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        matterNumber: expect.stringMatching(new RegExp(`^LIT-${year}-\\d{6}$`)),
        title: 'Acme v. Globex',
        caseType: 'commercial',
        claimAmount: 125000.5,
        currency: 'USD',
        defendantName: 'Globex Corporation',
        status: 'open',
        owner: 'carla',
        officeId: 'paris',
        tenantId: 'default',
        createdBy: 'carla',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(created.matterNumber).toMatch(MATTER_NUMBER_PATTERN);
    });

    it('reads it back by id, over HTTP and RPC alike', async () => {
      expect((await as('carla').get(`${CASES}/${created.id}`).expect(200)).body).toEqual(created);
      expect((await call(CasesRpc.get, 'carla', { caseId: created.id })).reply).toEqual(created);
    });

    it('creates over RPC with the same rules and the same numbering', async () => {
      const { reply } = await call(CasesRpc.create, 'carla', body({ currency: 'EUR', caseType: 'labor' }));
      expect(reply).toMatchObject({ owner: 'carla', currency: 'EUR', caseType: 'labor', status: 'open', tenantId: 'default' });
      expect(sequenceOf(reply!.matterNumber)).toBe(sequenceOf(created.matterNumber) + 1);
    });

    it('numbers per tenant: sequential, and concurrent creates never collide', async () => {
      const first = (await as('alice', 'acme').post(CASES).send(body()).expect(201)).body as LitigationCase;
      expect(first.matterNumber).toBe(`LIT-${year}-000001`); // acme's own counter, whatever default has drawn
      const second = (await as('alice', 'acme').post(CASES).send(body()).expect(201)).body as LitigationCase;
      expect(second.matterNumber).toBe(`LIT-${year}-000002`);

      const burst = await Promise.all(Array.from({ length: 12 }, () => as('alice', 'acme').post(CASES).send(body())));
      expect(burst.map((r) => r.status)).toEqual(Array(12).fill(201));
      const numbers = burst.map((r) => sequenceOf((r.body as LitigationCase).matterNumber)).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 3)); // unique and gapless
    });

    it('lists one page at a time, newest first, with filters', async () => {
      const page = (await as('alice', 'acme').get(`${CASES}?pageIndex=1&pageSize=5`).expect(200)).body;
      expect(page).toMatchObject({ pageIndex: 1, pageSize: 5, totalCount: 14 });
      expect(page.items).toHaveLength(5);
      const all = (await as('alice', 'acme').get(`${CASES}?pageSize=100`).expect(200)).body.items as LitigationCase[];
      // Newest first by creation instant (concurrent creates may draw their numbers in another order).
      const order = all.map((c) => Date.parse(c.createdAt));
      expect(order).toEqual([...order].sort((a, b) => b - a));
      expect(new Set(all.map((c) => c.id)).size).toBe(14);
      expect(all.every((c) => c.tenantId === 'acme')).toBe(true);

      const byNumber = (await as('alice', 'acme').get(`${CASES}?search=LIT-${year}-000002`).expect(200)).body;
      expect(byNumber.items.map((c: LitigationCase) => c.matterNumber)).toEqual([`LIT-${year}-000002`]);
      expect((await as('carla').get(`${CASES}?caseType=labor`).expect(200)).body.items.map((c: LitigationCase) => c.caseType)).toEqual(['labor']);
      expect((await as('carla').get(`${CASES}?status=closed`).expect(200)).body).toMatchObject({ items: [], totalCount: 0 });
      expectProblem(await as('carla').get(`${CASES}?pageSize=500`), 400, 'Validation.Failed');
      expectProblem(await as('carla').get(`${CASES}?caseType=criminal`), 400, 'Validation.Failed');
    });

    it('answers another tenant’s case, a malformed id and an unknown id with the same 404', async () => {
      for (const id of [created.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        expectProblem(await as('alice', 'acme').get(`${CASES}/${id}`), 404, 'NotFound');
        expect((await call(CasesRpc.get, 'alice', { caseId: id }, 'acme')).problem).toMatchObject({ status: 404, code: 'NotFound' });
      }
    });
  });

  describe('DataScope in SQL', () => {
    it('shows an `own` caller only the cases they own, and a `tenant` caller every case of the tenant', async () => {
      const mine = (
        await as('oscar')
          .post(CASES)
          .send(body({ title: 'Oscar’s matter' }))
          .expect(201)
      ).body as LitigationCase;
      const theirs = (
        await as('carla')
          .post(CASES)
          .send(body({ title: 'Carla’s matter' }))
          .expect(201)
      ).body as LitigationCase;

      const ownList = (await as('oscar').get(`${CASES}?pageSize=100`).expect(200)).body;
      expect(ownList.items.map((c: LitigationCase) => c.id)).toEqual([mine.id]);
      expect(ownList.totalCount).toBe(1);
      expectProblem(await as('oscar').get(`${CASES}/${theirs.id}`), 404, 'NotFound');
      expect((await call(CasesRpc.get, 'oscar', { caseId: theirs.id })).problem).toMatchObject({ code: 'NotFound' });
      expect((await as('oscar').get(`${CASES}/${mine.id}`).expect(200)).body.id).toBe(mine.id);

      const tenantList = (await as('carla').get(`${CASES}?pageSize=100`).expect(200)).body.items.map((c: LitigationCase) => c.id);
      expect(tenantList).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    });
  });

  describe('validation: one rule set, per-field problems, nothing written', () => {
    it.each<[string, unknown, string]>([
      ['a claim amount of 0', body({ claimAmount: 0 }), 'claimAmount'],
      ['a negative claim amount', body({ claimAmount: -10 }), 'claimAmount'],
      ['an unknown case type', body({ caseType: 'criminal' }), 'caseType'],
      ['an unknown field', body({ owner: 'mallory' }), 'owner'],
      ['a missing title', { caseType: 'civil', claimAmount: 10, defendantName: 'X' }, 'title'],
      ['a missing defendant', { title: 'T', caseType: 'civil', claimAmount: 10 }, 'defendantName'],
    ])('refuses %s on POST and on cases.create', async (_what, payload, field) => {
      const before = await written();
      const res = await as('carla')
        .post(CASES)
        .send(payload as object);
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
      const { problem } = await call(CasesRpc.create, 'carla', payload);
      expect(problem).toMatchObject({ status: 400, code: 'Validation.Failed' });
      expect(Object.keys(problem?.errors ?? {})).toEqual(Object.keys(res.body.errors));
      expect(await written()).toEqual(before);
    });

    it('names every missing field at once', async () => {
      const res = await as('carla').post(CASES).send({});
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors).sort()).toEqual(['caseType', 'claimAmount', 'defendantName', 'title']);
    });
  });

  describe('denial: no permission, no case', () => {
    let existing: LitigationCase;
    beforeAll(async () => {
      existing = (await as('carla').post(CASES).send(body()).expect(201)).body as LitigationCase;
    });

    it('refuses every route to a caller without a cases permission, writing nothing', async () => {
      const before = await written();
      expectProblem(await as('nina').post(CASES).send(body()), 403, 'Authorization.Denied');
      expectProblem(await as('nina').get(CASES), 403, 'Authorization.Denied');
      expectProblem(await as('nina').get(`${CASES}/${existing.id}`), 403, 'Authorization.Denied');
      // Create-only is not view: the list and someone else's case stay closed to cora.
      expectProblem(await as('cora').get(CASES), 403, 'Authorization.Denied');
      expectProblem(await as('cora').get(`${CASES}/${existing.id}`), 403, 'Authorization.Denied');
      expect(await written()).toEqual(before);
    });

    it('refuses each RPC pattern to such a caller, writing nothing', async () => {
      const before = await written();
      expect((await call(CasesRpc.create, 'nina', body())).problem).toMatchObject({ status: 403, code: 'Authorization.Denied' });
      expect((await call(CasesRpc.get, 'nina', { caseId: existing.id })).problem).toMatchObject({ status: 403, code: 'Authorization.Denied' });
      expect((await call(CasesRpc.get, 'cora', { caseId: existing.id })).problem).toMatchObject({ status: 403, code: 'Authorization.Denied' });
      expect(await written()).toEqual(before);
    });
  });

  describe('case.created and the owner relation', () => {
    it('publishes case.created once and makes the creator the owner, so a creator without cases.case.view reads their case through ReBAC', async () => {
      const created = (
        await as('cora')
          .post(CASES)
          .send(body({ title: 'Intake matter' }))
          .expect(201)
      ).body as LitigationCase;

      // One event in the outbox, in the case's transaction; the relay marks it sent.
      const events = await cases.query(`SELECT event_type, envelope, sent_at FROM cases.outbox_message WHERE envelope->'payload'->>'caseId' = $1`, [
        created.id,
      ]);
      expect(events).toHaveLength(1);
      expect(events[0].event_type).toBe('case.created');
      expect(events[0].envelope).toMatchObject({
        eventType: 'case.created',
        tenantId: 'default',
        payload: { caseId: created.id, matterNumber: created.matterNumber, owner: 'cora', tenantId: 'default', claimAmount: 125000.5 },
      });
      const sent = await eventually(
        () => cases.query(`SELECT sent_at FROM cases.outbox_message WHERE event_id = $1`, [events[0].envelope.eventId]),
        (rows: Array<{ sent_at: Date | null }>) => Boolean(rows[0]?.sent_at),
      );
      expect(sent[0]?.sent_at).toBeInstanceOf(Date);

      // policy-management consumes it (eventually consistent, bounded): the owner relation, its change-log entry.
      const relationOf = () =>
        platform.sql.query(
          `SELECT subject, subject_kind, relation, created_by FROM authz.resource_relation WHERE tenant_id = 'default' AND resource_type = 'case' AND resource_id = $1`,
          [created.id],
        );
      const relations = await eventually(relationOf, (rows: unknown[]) => rows.length > 0, 10_000);
      expect(relations).toEqual([{ subject: 'cora', subject_kind: 'user', relation: 'owner', created_by: CASE_OWNER_CONSUMER }]);
      expect(
        await platform.count(
          'policy_change_log',
          `change = 'case-owner.granted' AND target_id IN (SELECT id::text FROM authz.resource_relation WHERE resource_id = $1)`,
          [created.id],
        ),
      ).toBe(1);

      // cora holds only cases.case.create, yet reads her own case; nina (no permission) and oscar (own scope, not his) do not.
      const read = await eventually(
        () => as('cora').get(`${CASES}/${created.id}`),
        (res) => res.status === 200,
      );
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created);
      expect((await call(CasesRpc.get, 'cora', { caseId: created.id })).reply).toEqual(created);
      expectProblem(await as('nina').get(`${CASES}/${created.id}`), 403, 'Authorization.Denied');
      expectProblem(await as('oscar').get(`${CASES}/${created.id}`), 404, 'NotFound');

      // The same event again (a redelivery) changes nothing: processed once, one relation, one log entry.
      const listener = platform.policy.app.get(CaseOwnerRelationListener);
      expect(await listener.grantOwner({ eventId: events[0].envelope.eventId }, 'default', created.id, 'cora')).toBe(false);
      // A new event for the same relation (a re-publish under a new id) is idempotent on the relation's key.
      expect(await listener.grantOwner({ eventId: 'another-event-id' }, 'default', created.id, 'cora')).toBe(false);
      expect(await relationOf()).toHaveLength(1);
      expect(
        await platform.count(
          'policy_change_log',
          `change = 'case-owner.granted' AND target_id IN (SELECT id::text FROM authz.resource_relation WHERE resource_id = $1)`,
          [created.id],
        ),
      ).toBe(1);
    });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { DecisionRequest, DecisionResult, EvaluatorName, AuthzRpc, FLEET_SERVICE_NAMES } from '@lp/contracts';
import { EventBus, RpcClient, MessagingNames } from '@lp/platform/messaging';
import { createServiceApp, PlatformRuntime, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteTestRunResources, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';
import { ABAC_FIELDS, ABAC_OPERATORS, ABAC_VERDICTS, enumDeclaredIn, readAbacRuleSource } from './abac-integers';
import { CaseContext, contextForCase, realTime } from './case-context';
import { ConformanceCase, ConformanceExpectation, ConformanceFile, ConformanceRequest, factsOf, loadConformanceCorpus } from './corpus';
import { assertDecision, assertRefused, orderMatters, satisfies } from './expectations';
import { whyNotExpressible } from './expressibility';
import { ConformancePolicyStore } from './policy-store';

/**
 * The declarative conformance corpus of the decision core (libs/services/authz-decision/src/decision/
 * conformance/*.json), run against the real service: policy-management and authz-decision on
 * PostgreSQL, RabbitMQ and Redis, each decision asked as `authz.decide` over RabbitMQ through
 * policy-management's RpcClient, and compared with the case's expectations exactly as the in-memory
 * runner compares them (outcome, every evaluator's verdict, reason substrings, denials, obligations,
 * DataScope, failure; `validUntil` through `authz.explain`).
 *
 * How a case becomes real (details in case-context.ts and policy-store.ts):
 * - Each case gets tenants of its own, derived from its file and name, and its facts are written
 *   as rows of the `authz` tables. Grant and rule ids become uuids, case time becomes real time
 *   (a strictly increasing map), and the expected reasons are rewritten alike.
 * - Feature definitions are global. Cases run one after another (one Jest file, one worker), and
 *   before each case `feature_definition` is reset to exactly that case's defaults, with the global
 *   `authorization.feature.changed` event when that changes anything. A case therefore sees the
 *   defaults it declares and nothing another case left behind.
 * - A `change` step writes its rows in one transaction and publishes the integration event
 *   policy-management publishes for it; the next `decide` polls (5 s at most) until the expected
 *   answer arrives, then asserts it. The decision cache TTL is 60 s, so a stale answer served from
 *   the cache fails the case instead of passing late.
 * - A `clock` step waits for the mapped real instant.
 * - A failing store is a real failure: the table its SQL statement reads is renamed away for the
 *   case (and renamed back in `finally`). Failed decisions are never cached.
 * - A case whose facts the schema forbids (e.g. an ABAC verdict outside the CHECK) is skipped with
 *   its reason printed; a case that names a registration order other than the service's is
 *   compared order-insensitively (the in-memory runner's reversed replay does the same).
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'conformance corpus on the real service (PostgreSQL, RabbitMQ, Redis)', () => {
  const corpus = loadConformanceCorpus();
  const runId = testRunId('conf');
  const redisPrefix = `${runId}:`;
  const amqpPrefix = `${runId}.`;
  let db: TestDatabase;
  let runtime: PlatformRuntime;
  let policy: ServiceApp | undefined;
  let decision: ServiceApp | undefined;
  let rpc: RpcClient;
  let store: ConformancePolicyStore;
  const orderInsensitive = new Set<string>();

  // The corpus states every evaluator's verdict: ask for the reasons the lean reply leaves out.
  const decide = ({ caller, ...query }: DecisionRequest) =>
    rpc.call(AuthzRpc.decide, { caller, payload: { ...query, withReasons: true } }) as Promise<DecisionResult>;
  const explain = ({ caller, ...query }: DecisionRequest) => rpc.call(AuthzRpc.explain, { caller, payload: query });

  async function sleepUntil(instantMs: number): Promise<void> {
    for (let left = instantMs - Date.now(); left >= 0; left = instantMs - Date.now()) await sleep(left + 1);
  }

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('conformance'));
    runtime = await startPlatformRuntime('conformance-on-service', {
      DATABASE_URL: db.url,
      AMQP_URL: testServerUrls.rabbitmq,
      AMQP_PREFIX: amqpPrefix,
      REDIS_URL: testServerUrls.redis,
      REDIS_KEY_PREFIX: redisPrefix,
      JWT_SECRET: 'conformance-on-service-secret-0123456789',
      LOG_LEVEL: 'silent',
    });
    policy = await createServiceApp(policyManagementService, runtime);
    decision = await createServiceApp(authzDecisionService, runtime);
    rpc = policy.app.get(RpcClient);
    store = new ConformancePolicyStore(policy.app.get(DataSource), policy.app.get(EventBus));
  }, 90_000);

  afterAll(async () => {
    await store?.restoreAllStores();
    await decision?.app.close();
    await policy?.app.close();
    await runtime?.close();
    await db?.drop();
    await deleteTestRunResources({ amqp: amqpPrefix, redis: redisPrefix, brokerObjects: new MessagingNames(amqpPrefix).durableObjects(FLEET_SERVICE_NAMES) });
    if (orderInsensitive.size > 0) {
      process.stdout.write(
        `conformance on service: compared order-insensitively (case names a registration order other than the service's): ${[...orderInsensitive].join('; ')}\n`,
      );
    }
  });

  /** One decide step: the request as the in-memory runner builds it, translated for the case. */
  async function decideAndCheck(
    ctx: CaseContext,
    c: ConformanceCase,
    caseId: string,
    spec: ConformanceRequest,
    expectation: ConformanceExpectation,
    afterChange: boolean,
  ) {
    const request = ctx.request(spec);
    const expected = ctx.expectation(expectation);
    if (expected.error) {
      const refusal = await decide(request).then(
        (answer) => answer,
        (error: unknown) => error,
      );
      return assertRefused(refusal, expected);
    }
    let result = await decide(request);
    const serviceOrder = result.evaluations.map((e) => e.evaluator as EvaluatorName);
    const ordered = orderMatters(c.evaluatorOrder, serviceOrder);
    if (!ordered) orderInsensitive.add(caseId);
    if (afterChange) {
      // The change's event reaches authz-decision asynchronously: ask until it has been applied.
      const deadline = Date.now() + 5_000;
      while (!satisfies(result, expected, ordered) && Date.now() < deadline) {
        await sleep(50);
        result = await decide(request);
      }
    }
    assertDecision(result, expected, ordered);
    if (expected.validUntil !== undefined) {
      expect(result.validUntil ?? null).toBe(expected.validUntil);
      const explanation = await explain(request);
      expect(explanation.decision.outcome).toBe(result.outcome);
      expect(explanation.decision.validUntil ?? null).toBe(expected.validUntil);
    }
  }

  async function runCase(fileName: string, file: ConformanceFile, c: ConformanceCase): Promise<void> {
    const caseId = `${fileName} › ${c.name}`;
    // Case `now` is the real instant the case starts; every decision of a step follows within ms.
    const ctx = contextForCase(fileName, file, c, Date.now());
    const facts = factsOf(c, file);
    await store.syncFeatureDefinitions(facts.featureDefaults ?? {});
    await store.load(facts, ctx);
    try {
      for (const failing of c.failStores ?? []) await store.failStore(failing);
      if (c.sequence === undefined) return await decideAndCheck(ctx, c, caseId, c.request!, c.expect!, false);
      let changed = false;
      for (const [i, step] of c.sequence.entries()) {
        try {
          if ('change' in step) {
            await store.apply(step.change, ctx);
            changed = true;
          } else if ('clock' in step) {
            await sleepUntil(ctx.time.realMs(step.clock));
          } else {
            await decideAndCheck(ctx, c, caseId, step.decide, step.expect, changed);
            changed = false;
          }
        } catch (error) {
          if (error instanceof Error) error.message = `step ${i} (${Object.keys(step)[0]}): ${error.message}`;
          throw error;
        }
      }
    } finally {
      await store.restoreAllStores();
    }
  }

  it('writes ABAC verdicts, fields and operators with the integers the decision core declares', () => {
    const source = readAbacRuleSource();
    expect(ABAC_VERDICTS).toEqual(enumDeclaredIn(source, 'AbacVerdict'));
    expect(ABAC_FIELDS).toEqual(enumDeclaredIn(source, 'AbacField'));
    expect(ABAC_OPERATORS).toEqual(enumDeclaredIn(source, 'AbacOperator'));
  });

  // Before the corpus: no integration event is in flight yet, so a repeat can only miss the cache if the cache failed.
  describe('decision cache on the service', () => {
    const view = { action: 'View', resource: { module: 'cases', resourceType: 'case' } };

    it('never serves a delegated caller from the cache: two identical delegated requests are both decided afresh', async () => {
      const ctx = new CaseContext('service › delegated bypass', ['dg-1'], realTime);
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      await store.load(
        {
          tenants: {
            t1: {
              roles: { auditor: { dataScope: 'tenant', permissions: ['cases.case.view'] } },
              bindings: { alice: ['auditor'] },
              delegatedGrants: { alice: [{ grantId: 'dg-1', actor: 'bob', permissions: ['cases.case.view'], expiresAt }] },
            },
          },
        },
        ctx,
      );
      const request = ctx.request({ caller: { kind: 'delegated', subject: 'alice', actor: 'bob' }, ...view });
      const first = await decide(request);
      const second = await decide(request);
      expect([first, second].map((r) => ({ outcome: r.outcome, cached: r.cached }))).toEqual([
        { outcome: 'Permit', cached: false },
        { outcome: 'Permit', cached: false },
      ]);
      expect(second.decisionId).not.toBe(first.decisionId);
      expect(first.evaluations.find((e) => e.evaluator === 'RBAC')?.reason).toContain(`delegated grant ${ctx.id('dg-1')}`);
    });

    it('serves a repeated non-delegated request from the cache, with a new decisionId and the same DataScope', async () => {
      const ctx = new CaseContext('service › cache hit', [], realTime);
      await store.load(
        {
          tenants: {
            t1: {
              roles: { clerk: { dataScope: 'office', permissions: ['cases.case.view'] } },
              bindings: { alice: ['clerk'] },
              offices: { alice: ['o2', 'o1'] },
            },
          },
        },
        ctx,
      );
      const request = ctx.request({ caller: { kind: 'user', subject: 'alice' }, ...view });
      const first = await decide(request);
      const second = await decide(request);
      expect(first).toMatchObject({ outcome: 'Permit', cached: false });
      expect(second).toMatchObject({ outcome: 'Permit', cached: true });
      expect(second.decisionId).not.toBe(first.decisionId);
      expect(second.dataScope).toEqual(first.dataScope);
      expect(second.dataScope).toEqual({ kind: 'office', tenantId: ctx.tenant('t1'), officeIds: ['o1', 'o2'] });
      expect(second.evaluations).toEqual(first.evaluations);
    });

    it('never serves a cached Permit past the temporary grant behind it (grant expiring in 1.5 s)', async () => {
      const ctx = new CaseContext('service › grant expiry through the cache', ['tg-1'], realTime);
      const expiresAt = new Date(Date.now() + 1_500);
      await store.load(
        { tenants: { t1: { temporaryGrants: { erin: [{ grantId: 'tg-1', permissions: ['cases.case.delete'], expiresAt: expiresAt.toISOString() }] } } } },
        ctx,
      );
      const request = ctx.request({ caller: { kind: 'user', subject: 'erin' }, action: 'Delete', resource: view.resource });
      const first = await decide(request);
      const second = await decide(request);
      const explanation = await explain(request);
      expect(Date.now()).toBeLessThan(expiresAt.getTime()); // the three calls above happened before the expiry
      expect(first).toMatchObject({ outcome: 'Permit', cached: false });
      expect(second).toMatchObject({ outcome: 'Permit', cached: true });
      expect(explanation.decision.validUntil).toBe(expiresAt.toISOString());

      await sleepUntil(expiresAt.getTime());
      const after = await decide(request);
      expect(after).toMatchObject({ outcome: 'NoMatchingPolicy', permitted: false, cached: false });
      expect(after.evaluations.find((e) => e.evaluator === 'RBAC')?.reason).toContain(`${ctx.id('tg-1')} expired at ${expiresAt.toISOString()}`);
    });
  });

  for (const { file: fileName, corpus: file } of corpus) {
    describe(fileName, () => {
      const names = file.cases.map((c) => c.name);
      // A case's tenants derive from its file and name: two cases of one name would share rows.
      if (new Set(names).size !== names.length) throw new Error(`${fileName}: case names must be unique`);
      for (const c of file.cases) {
        const reason = whyNotExpressible(c, file);
        if (reason !== undefined) {
          process.stdout.write(`SKIPPED conformance case "${fileName} › ${c.name}" on the service: ${reason}\n`);
          it.skip(`${c.name} (not expressible on the service: ${reason})`, () => undefined);
          continue;
        }
        it(c.name, () => runCase(fileName, file, c), 30_000);
      }
    });
  }
});

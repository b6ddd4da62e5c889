import fc from 'fast-check';
import {
  AuthorizationAction,
  validateDecisionRequest,
  ValidDecisionRequest,
  EvaluatorName,
  EvaluatorResult,
  EvaluatorVerdict,
  TrustedCaller,
} from '@lp/contracts';
import { AbacField, AbacOperator, AbacRule, AbacVerdict } from './abac-rule';
import { createStandardEvaluators, DecisionEngine, DecisionFailure } from './decision-engine';
import { mergeEvaluations } from './decision-merge';
import { minutesFrom, NOW, TENANT } from '../../test/decision.fixtures';
import { FEATURE_ENABLED_VERDICTS, FeatureEnabledVerdict } from './feature.evaluator';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { DataScopeSetting, POLICY_STORE_NAMES, PolicyStoreName, RelationName } from './policy-facts';

/*
 * Property tests against a small reference written from the spec §1 table alone. It shares no code
 * with the engine: it reads the generated model directly, not through the port.
 */

const MODULES = ['cases', 'tickets', 'mcp'] as const;
const RESOURCE_TYPES = ['case', 'client', 'note'] as const;
const ACTIONS = [AuthorizationAction.View, AuthorizationAction.Create, AuthorizationAction.Update, AuthorizationAction.Delete] as const;
const CODES = MODULES.flatMap((m) => RESOURCE_TYPES.flatMap((r) => ACTIONS.map((a) => `${m}.${r}.${a.toLowerCase()}`)));
const SETTINGS: DataScopeSetting[] = ['tenant', 'office', 'own', 'none'];
const FEATURES = { tickets: 'tickets', mcp: 'mcp.access' } as const;

type Field = 'status' | 'amount' | 'owner' | 'callerKind' | 'callerIsOwner';
interface ModelCondition {
  field: Field;
  operator: AbacOperator;
  value?: string | number | boolean | string[];
}
interface ModelRule {
  priority: number;
  verdict: AbacVerdict;
  conditions: ModelCondition[];
  actions?: AuthorizationAction[];
  obligations?: string[];
}
interface Model {
  roles: { scope: DataScopeSetting; codes: string[] }[];
  tempGrants: { codes: string[]; expiryMinutes: number; scope?: DataScopeSetting }[];
  delegations: { actor: 'bob' | 'carol'; codes: string[]; expiryMinutes: number }[];
  offices: string[];
  rules: ModelRule[];
  relations: { relation: RelationName; resourceType: string; resourceId: string }[];
  featureDefaults: Partial<Record<string, boolean>>;
  featureOverrides: Partial<Record<string, boolean>>;
  failing: PolicyStoreName | null;
}
interface ModelRequest {
  kind: 'user' | 'application' | 'delegated';
  actor: 'bob' | 'carol';
  grantIndex: number | null;
  scopes: string[];
  module: string;
  resourceType: string;
  resourceId?: string;
  action: AuthorizationAction;
  status?: string;
  amount?: number;
  owner?: string;
}

// ---- arbitraries ----

const codeOf = (r: Pick<ModelRequest, 'module' | 'resourceType' | 'action'>) => `${r.module}.${r.resourceType}.${r.action.toLowerCase()}`;
// Expiry in minutes from now, biased to the boundary: 0 is exactly expired.
const expiry = fc.oneof(fc.constantFrom(-1, 0, 1), fc.integer({ min: -30, max: 30 }));
const condition: fc.Arbitrary<ModelCondition> = fc.oneof(
  fc.record({
    field: fc.constant<Field>('status'),
    operator: fc.constantFrom(AbacOperator.Equals, AbacOperator.NotEquals),
    value: fc.constantFrom('open', 'closed'),
  }),
  fc.record({
    field: fc.constant<Field>('status'),
    operator: fc.constantFrom(AbacOperator.In, AbacOperator.NotIn),
    value: fc.subarray(['open', 'closed', 'draft']),
  }),
  fc.record({ field: fc.constantFrom<Field>('status', 'amount', 'owner'), operator: fc.constantFrom(AbacOperator.Exists, AbacOperator.NotExists) }),
  fc.record({
    field: fc.constant<Field>('amount'),
    operator: fc.constantFrom(AbacOperator.GreaterThan, AbacOperator.GreaterThanOrEqual, AbacOperator.LessThan, AbacOperator.LessThanOrEqual),
    value: fc.constantFrom(0, 50, 100),
  }),
  fc.record({ field: fc.constant<Field>('owner'), operator: fc.constant(AbacOperator.Equals), value: fc.constantFrom('alice', 'bob') }),
  fc.record({
    field: fc.constant<Field>('callerKind'),
    operator: fc.constant(AbacOperator.Equals),
    value: fc.constantFrom('user', 'application', 'delegated'),
  }),
  fc.record({ field: fc.constant<Field>('callerIsOwner'), operator: fc.constant(AbacOperator.Equals), value: fc.boolean() }),
);
const rule: fc.Arbitrary<ModelRule> = fc.record(
  {
    priority: fc.integer({ min: 1, max: 3 }),
    verdict: fc.constantFrom(AbacVerdict.Allow, AbacVerdict.Deny),
    conditions: fc.array(condition, { maxLength: 2 }),
    actions: fc.subarray([...ACTIONS]),
    obligations: fc.subarray(['watermark', 'log-access']),
  },
  { requiredKeys: ['priority', 'verdict', 'conditions'] },
);
const featureState = fc.dictionary(fc.constantFrom(...Object.values(FEATURES)), fc.boolean());

const modelRequest: fc.Arbitrary<ModelRequest> = fc.record(
  {
    kind: fc.constantFrom<ModelRequest['kind']>('user', 'application', 'delegated'),
    actor: fc.constantFrom<'bob' | 'carol'>('bob', 'carol'),
    grantIndex: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    scopes: fc.subarray(CODES, { maxLength: 3 }),
    module: fc.constantFrom(...MODULES),
    resourceType: fc.constantFrom(...RESOURCE_TYPES),
    resourceId: fc.constantFrom('r1', 'r2'),
    action: fc.constantFrom(...ACTIONS),
    status: fc.constantFrom('open', 'closed', 'draft'),
    amount: fc.constantFrom(0, 50, 100),
    owner: fc.constantFrom('alice', 'bob'),
  },
  { requiredKeys: ['kind', 'actor', 'grantIndex', 'scopes', 'module', 'resourceType', 'action'] },
);

/**
 * Facts biased towards the request, so grants, relations and scopes hit the requested code and
 * instance often enough for every branch of the reference to be exercised.
 */
function modelFor(r: ModelRequest, failing: fc.Arbitrary<PolicyStoreName | null>): fc.Arbitrary<Model> {
  const other = fc.constantFrom(...CODES);
  const codes = fc
    .tuple(fc.boolean(), fc.subarray(CODES.filter((c) => c.startsWith(`${r.module}.${r.resourceType}.`))), fc.array(other, { maxLength: 2 }))
    .map(([hit, siblings, others]) => [...new Set([...(hit ? [codeOf(r)] : []), ...siblings, ...others])]);
  return fc.record({
    roles: fc.array(fc.record({ scope: fc.constantFrom(...SETTINGS), codes }), { maxLength: 2 }),
    tempGrants: fc.array(fc.record({ codes, expiryMinutes: expiry, scope: fc.option(fc.constantFrom(...SETTINGS), { nil: undefined }) }), { maxLength: 2 }),
    delegations: fc.array(fc.record({ actor: fc.constantFrom<'bob' | 'carol'>('bob', 'carol'), codes, expiryMinutes: expiry }), { maxLength: 3 }),
    offices: fc.subarray(['o1', 'o2']),
    rules: fc.array(rule, { maxLength: 4 }),
    relations: fc.array(
      fc.record({
        relation: fc.constantFrom<RelationName>('owner', 'member', 'viewer'),
        resourceType: fc.constantFrom(r.resourceType, ...RESOURCE_TYPES),
        resourceId: fc.constantFrom(r.resourceId ?? 'r1', 'r2'),
      }),
      { maxLength: 3 },
    ),
    featureDefaults: featureState,
    featureOverrides: featureState,
    failing,
  });
}

const scenario = (failing: fc.Arbitrary<PolicyStoreName | null>): fc.Arbitrary<[Model, ModelRequest]> =>
  modelRequest.chain((r) =>
    fc.tuple(modelFor(r, failing), fc.boolean()).map(([m, scoped]): [Model, ModelRequest] => [m, scoped ? { ...r, scopes: [...r.scopes, codeOf(r)] } : r]),
  );

// ---- model → engine inputs ----

const FIELD_OF: Record<Field, AbacField> = {
  status: AbacField.ResourceStatus,
  amount: AbacField.ResourceAmount,
  owner: AbacField.ResourceOwner,
  callerKind: AbacField.CallerKind,
  callerIsOwner: AbacField.CallerIsOwner,
};

function factsOf(m: Model): InMemoryPolicyFacts {
  const facts = new InMemoryPolicyFacts();
  m.roles.forEach((r, i) => {
    facts.defineRole(TENANT, `role${i}`, r.scope, r.codes);
    facts.bindRole(TENANT, 'alice', `role${i}`);
  });
  facts.setOffices(TENANT, 'alice', m.offices);
  m.tempGrants.forEach((g, i) =>
    facts.grantTemporary(TENANT, 'alice', { grantId: `tg${i}`, permissions: g.codes, expiresAt: minutesFrom(NOW, g.expiryMinutes), dataScope: g.scope }),
  );
  m.delegations.forEach((d, i) =>
    facts.delegate(TENANT, 'alice', { grantId: `dg${i}`, actor: d.actor, permissions: d.codes, expiresAt: minutesFrom(NOW, d.expiryMinutes) }),
  );
  m.rules.forEach((r, i) => {
    const abac: AbacRule = {
      id: `r${i}`,
      priority: r.priority,
      verdict: r.verdict,
      conditions: r.conditions.map((c) => ({ field: FIELD_OF[c.field], operator: c.operator, value: c.value })),
      ...(r.actions ? { actions: r.actions } : {}),
      ...(r.obligations ? { obligations: r.obligations } : {}),
    };
    facts.putAbacRule(TENANT, abac);
  });
  for (const r of m.relations) facts.addRelation(TENANT, { subject: 'alice', ...r });
  for (const [code, enabled] of Object.entries(m.featureDefaults)) facts.setFeatureDefault(code, enabled);
  for (const [code, enabled] of Object.entries(m.featureOverrides)) facts.setFeatureOverride(TENANT, code, enabled);
  if (m.failing) facts.failStore(m.failing);
  return facts;
}

function requestOf(r: ModelRequest): ValidDecisionRequest {
  const base = { tenantId: TENANT, claimsDigest: 'd', scopes: r.scopes };
  const caller: TrustedCaller =
    r.kind === 'application'
      ? { ...base, kind: 'application', subject: 'app1', clientId: 'app1' }
      : r.kind === 'delegated'
        ? { ...base, kind: 'delegated', subject: 'alice', actor: r.actor, ...(r.grantIndex === null ? {} : { grantId: `dg${r.grantIndex}` }) }
        : { ...base, kind: 'user', subject: 'alice' };
  const { module, resourceType, resourceId, status, amount, owner } = r;
  return validateDecisionRequest({ caller, action: r.action, resource: { module, resourceType, resourceId, status, amount, owner } });
}

// ---- the reference ----

type Verdicts = Record<EvaluatorName, EvaluatorVerdict>;

function referenceVerdicts(m: Model, r: ModelRequest, featureEnabledVerdict: FeatureEnabledVerdict = 'neutral'): Verdicts {
  const code = `${r.module}.${r.resourceType}.${r.action.toLowerCase()}`;
  const fails = (store: PolicyStoreName) => m.failing === store;
  const subject = r.kind === 'application' ? 'app1' : 'alice';

  let rbac: EvaluatorVerdict = 'Neutral';
  if (r.kind !== 'application') {
    if (fails('subjectPermissions')) rbac = 'Deny';
    else {
      const holds = m.roles.some((x) => x.codes.includes(code)) || m.tempGrants.some((g) => g.codes.includes(code) && g.expiryMinutes > 0);
      const delegation = m.delegations.some(
        (d, i) => d.actor === r.actor && (r.grantIndex === null || r.grantIndex === i) && d.codes.includes(code) && d.expiryMinutes > 0,
      );
      if (r.kind === 'user' ? holds : holds && delegation) rbac = 'Allow';
    }
  }

  const appScope: EvaluatorVerdict = r.kind === 'application' && r.scopes.includes(code) ? 'Allow' : 'Neutral';

  let abac: EvaluatorVerdict = 'Neutral';
  if (fails('abacRules')) abac = 'Deny';
  else {
    const factOf = (field: Field) =>
      ({ status: r.status, amount: r.amount, owner: r.owner, callerKind: r.kind, callerIsOwner: r.owner === undefined ? undefined : r.owner === subject })[
        field
      ];
    const holds = (c: ModelCondition) => {
      const fact = factOf(c.field);
      if (c.operator === AbacOperator.Exists) return fact !== undefined;
      if (c.operator === AbacOperator.NotExists) return fact === undefined;
      if (fact === undefined) return false;
      if (c.operator === AbacOperator.Equals) return fact === c.value;
      if (c.operator === AbacOperator.NotEquals) return fact !== c.value;
      if (c.operator === AbacOperator.In) return (c.value as string[]).includes(fact as string);
      if (c.operator === AbacOperator.NotIn) return !(c.value as string[]).includes(fact as string);
      const [a, b] = [fact as number, c.value as number];
      return c.operator === AbacOperator.GreaterThan
        ? a > b
        : c.operator === AbacOperator.GreaterThanOrEqual
          ? a >= b
          : c.operator === AbacOperator.LessThan
            ? a < b
            : a <= b;
    };
    const ordered = m.rules.map((x, i) => ({ ...x, i })).sort((a, b) => a.priority - b.priority || a.i - b.i);
    const first = ordered.find((x) => (!x.actions || x.actions.length === 0 || x.actions.includes(r.action)) && x.conditions.every(holds));
    if (first) abac = first.verdict === AbacVerdict.Allow ? 'Allow' : 'Deny';
  }

  let rebac: EvaluatorVerdict = 'Neutral';
  if (r.kind !== 'application' && ['case', 'client', 'billing'].includes(r.resourceType) && r.resourceId !== undefined) {
    if (fails('relations')) rebac = 'Deny';
    else {
      const mine = m.relations.filter((x) => x.resourceType === r.resourceType && x.resourceId === r.resourceId);
      const allows = (rel: RelationName) =>
        rel === 'owner' ||
        (rel === 'member' && [AuthorizationAction.View, AuthorizationAction.Update].includes(r.action)) ||
        (rel === 'viewer' && r.action === AuthorizationAction.View);
      if (mine.some((x) => allows(x.relation))) rebac = 'Allow';
    }
  }

  let feature: EvaluatorVerdict = 'Neutral';
  const featureCode = (FEATURES as Record<string, string>)[r.module];
  if (featureCode) {
    if (fails('features')) feature = 'Deny';
    else if ((m.featureOverrides[featureCode] ?? m.featureDefaults[featureCode]) !== true) feature = 'Deny';
    else feature = featureEnabledVerdict === 'allow' ? 'Allow' : 'Neutral';
  }
  return { RBAC: rbac, AppScope: appScope, ABAC: abac, ReBAC: rebac, Feature: feature };
}

/** Spec §1 merge, with the delegation cap: a delegated caller is permitted only through RBAC's Allow. */
function referenceOutcome(verdicts: Partial<Verdicts>, delegated = false): string {
  const all = Object.values(verdicts);
  if (all.includes('Deny')) return 'Deny';
  if (!all.includes('Allow')) return 'NoMatchingPolicy';
  return delegated && verdicts.RBAC !== 'Allow' ? 'Deny' : 'Permit';
}

function verdictsOf(evaluations: EvaluatorResult[]): Partial<Verdicts> {
  return Object.fromEntries(evaluations.map((e) => [e.evaluator, e.verdict]));
}

const engineFor = (facts: InMemoryPolicyFacts, evaluators = createStandardEvaluators(facts)) => new DecisionEngine({ facts, evaluators, clock: () => NOW });

const healthy = scenario(fc.constant(null));
const anyFailure = scenario(fc.option(fc.constantFrom(...POLICY_STORE_NAMES), { nil: null }));

describe('DecisionEngine properties', () => {
  it.each(FEATURE_ENABLED_VERDICTS)(
    'agrees with the reference on every evaluator verdict and on the outcome (enabled feature: %s)',
    async (featureEnabledVerdict) => {
      await fc.assert(
        fc.asyncProperty(anyFailure, async ([m, r]) => {
          const facts = factsOf(m);
          const result = await engineFor(facts, createStandardEvaluators(facts, { featureEnabledVerdict })).decide(requestOf(r));
          const expected = referenceVerdicts(m, r, featureEnabledVerdict);
          expect(verdictsOf(result.evaluations)).toEqual(expected);
          expect(result.outcome).toBe(referenceOutcome(expected, r.kind === 'delegated'));
          expect(result.permitted).toBe(result.outcome === 'Permit');
        }),
        { numRuns: 1000 },
      );
    },
  );

  it('a delegated caller is never permitted beyond what its delegated grant and the delegator hold', async () => {
    await fc.assert(
      fc.asyncProperty(anyFailure, async ([m, r]) => {
        if (r.kind !== 'delegated') return;
        const facts = factsOf(m);
        const result = await engineFor(facts, createStandardEvaluators(facts, { featureEnabledVerdict: 'allow' })).decide(requestOf(r));
        if (result.permitted) expect(referenceVerdicts(m, r).RBAC).toBe('Allow');
      }),
      { numRuns: 500 },
    );
  });

  it('any Deny ⇒ not permitted; all Neutral ⇒ NoMatchingPolicy; not permitted ⇒ a none scope of the tenant', async () => {
    await fc.assert(
      fc.asyncProperty(anyFailure, async ([m, r]) => {
        const result = await engineFor(factsOf(m)).decide(requestOf(r));
        const verdicts = result.evaluations.map((e) => e.verdict);
        if (verdicts.includes('Deny')) expect(result).toMatchObject({ outcome: 'Deny', permitted: false });
        if (verdicts.every((v) => v === 'Neutral')) expect(result).toMatchObject({ outcome: 'NoMatchingPolicy', permitted: false });
        if (!result.permitted) expect(result.dataScope).toEqual({ kind: 'none', tenantId: TENANT });
        expect(result.dataScope.tenantId).toBe(TENANT);
      }),
      { numRuns: 200 },
    );
  });

  it('a store error that the decision meets ⇒ not permitted, flagged PolicyStoreUnavailable', async () => {
    await fc.assert(
      fc.asyncProperty(scenario(fc.constantFrom(...POLICY_STORE_NAMES)), async ([m, r]) => {
        const facts = factsOf(m);
        const result = await engineFor(facts).decide(requestOf(r));
        if (facts.readCount(m.failing!) > 0) {
          expect(result.permitted).toBe(false);
          expect(result.failure).toBe(DecisionFailure.PolicyStoreUnavailable);
        } else {
          expect(result.failure).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('with every store failing, nothing is ever permitted', async () => {
    await fc.assert(
      fc.asyncProperty(healthy, async ([m, r]) => {
        const facts = factsOf(m);
        for (const store of POLICY_STORE_NAMES) facts.failStore(store);
        expect((await engineFor(facts).decide(requestOf(r))).permitted).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('registration order never changes the outcome, scope, expiry or obligations; only their order', async () => {
    const order = fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 5, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(anyFailure, order, async ([m, r], permutation) => {
        const standard = await engineFor(factsOf(m)).decide(requestOf(r));
        const facts = factsOf(m);
        const evaluators = createStandardEvaluators(facts);
        const permuted = await engineFor(
          facts,
          permutation.map((i) => evaluators[i]!),
        ).decide(requestOf(r));
        expect(permuted.outcome).toBe(standard.outcome);
        expect(permuted.permitted).toBe(standard.permitted);
        expect(permuted.dataScope).toEqual(standard.dataScope);
        expect(permuted.validUntil).toBe(standard.validUntil);
        expect([...permuted.obligations].sort()).toEqual([...standard.obligations].sort());
        expect(permuted.evaluations.map((e) => e.evaluator)).toEqual(permutation.map((i) => evaluators[i]!.name));
        expect(verdictsOf(permuted.evaluations)).toEqual(verdictsOf(standard.evaluations));
      }),
      { numRuns: 200 },
    );
  });

  it('decide (no evaluator inputs built) answers exactly what explain traces', async () => {
    await fc.assert(
      fc.asyncProperty(anyFailure, async ([m, r]) => {
        const engine = new DecisionEngine({ facts: factsOf(m), clock: () => NOW, newDecisionId: () => 'same' });
        const [decided, explained] = await Promise.all([engine.decide(requestOf(r)), engine.explain(requestOf(r))]);
        expect(decided).toEqual(explained.decision);
      }),
      { numRuns: 300 },
    );
  });

  it('a decision-cache hit recomputes the same DataScope from unchanged facts', async () => {
    await fc.assert(
      fc.asyncProperty(healthy, async ([m, r]) => {
        const engine = engineFor(factsOf(m));
        const decided = await engine.decide(requestOf(r));
        await expect(engine.resolveDataScope(requestOf(r), decided.permitted)).resolves.toEqual(decided.dataScope);
      }),
      { numRuns: 200 },
    );
  });

  it('validUntil is set only with a grant behind an Allow, and is never in the past', async () => {
    await fc.assert(
      fc.asyncProperty(healthy, async ([m, r]) => {
        const result = await engineFor(factsOf(m)).decide(requestOf(r));
        if (result.validUntil !== undefined) {
          expect(new Date(result.validUntil).getTime()).toBeGreaterThan(NOW.getTime());
          expect(result.evaluations.find((e) => e.evaluator === 'RBAC')?.verdict).toBe('Allow');
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('mergeEvaluations properties', () => {
  const names: EvaluatorName[] = ['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature'];
  const results = fc
    .array(fc.record({ verdict: fc.constantFrom<EvaluatorVerdict>('Allow', 'Deny', 'Neutral'), obligations: fc.subarray(['a', 'b', 'c']) }), {
      maxLength: 5,
    })
    .map((rows) =>
      rows.map((row, i): EvaluatorResult => ({
        evaluator: names[i]!,
        verdict: row.verdict,
        reason: `${names[i]} ${row.verdict}`,
        obligations: row.obligations,
      })),
    );

  it('matches the reference merge and is invariant under reordering', () => {
    fc.assert(
      fc.property(results, fc.nat(), (rows, seed) => {
        const merged = mergeEvaluations(rows);
        expect(merged.outcome).toBe(referenceOutcome(Object.fromEntries(rows.map((x) => [x.evaluator, x.verdict]))));
        const rotated = [...rows.slice(seed % (rows.length || 1)), ...rows.slice(0, seed % (rows.length || 1))];
        const again = mergeEvaluations(rotated);
        expect(again.outcome).toBe(merged.outcome);
        expect(again.denialReasons[0]).toBe(rotated.filter((x) => x.verdict === 'Deny').map((x) => `${x.evaluator}: ${x.reason}`)[0]);
        if (merged.permitted) expect(merged.obligations).toEqual(rows.filter((x) => x.verdict === 'Allow').flatMap((x) => x.obligations ?? []));
      }),
      { numRuns: 500 },
    );
  });

  it('for a delegated caller, only RBAC can permit and every other evaluator can only add a Deny', () => {
    fc.assert(
      fc.property(results, (rows) => {
        const merged = mergeEvaluations(rows, { delegated: true });
        expect(merged.outcome).toBe(referenceOutcome(Object.fromEntries(rows.map((x) => [x.evaluator, x.verdict])), true));
        if (merged.permitted) expect(rows.find((x) => x.evaluator === 'RBAC')?.verdict).toBe('Allow');
        if (merged.rule === 'DelegationNotCovered') expect(merged.denialReasons).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });
});

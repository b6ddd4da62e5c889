import { DecisionRequest, EvaluatorName, TrustedCaller } from '@lp/contracts';
import { createStandardEvaluators, DecisionEngine, DecisionEngineResult } from '../../src/engine/decision-engine';
import { InvalidDecisionRequestError, validateDecisionRequest } from '@lp/contracts';
import { InMemoryPolicyFacts } from '../in-memory-policy-facts';
import { FeatureEnabledVerdict } from '../../src/engine/feature.evaluator';
import { ConformanceCase, ConformanceExpectation, ConformanceFile, ConformanceRequest, expectationUnder, loadConformanceCorpus } from './conformance-corpus';

/**
 * Every tag the corpus must cover, and the only tags it may use (a misspelt tag fails here rather
 * than silently leaving a row uncovered). One tag per row of the spec §1 evaluator table and merge
 * rule, plus the behaviours the brief names: delegated callers, grant expiry, fail-closed stores.
 */
const CONFORMANCE_TAGS = [
  'rbac.allow.role',
  'rbac.allow.temporary-grant',
  'rbac.allow.delegated-grant',
  'rbac.neutral.absent',
  'rbac.neutral.not-applicable',
  'rbac.neutral.grant-expired',
  'rbac.deny.store-failure',
  'app-scope.allow',
  'app-scope.neutral.absent',
  'app-scope.neutral.not-applicable',
  'abac.allow.first-match',
  'abac.deny.first-match',
  'abac.deny.store-failure',
  'abac.deny.malformed-rule',
  'abac.neutral.no-rules',
  'abac.neutral.no-match',
  'abac.action-filter',
  'abac.priority-order',
  'abac.obligations',
  'rebac.allow.owner',
  'rebac.allow.member',
  'rebac.allow.viewer',
  'rebac.neutral.incompatible-action',
  'rebac.neutral.no-subject',
  'rebac.neutral.no-instance',
  'rebac.neutral.no-relation',
  'rebac.neutral.unsupported-resource',
  'rebac.deny.store-failure',
  'feature.neutral.enabled',
  'feature.allow.enabled.spec-literal',
  'feature.deny.disabled',
  'feature.deny.undefined',
  'feature.deny.store-failure',
  'feature.neutral.unmapped',
  'feature.tenant-override',
  'feature.mapping',
  'merge.1',
  'merge.2',
  'merge.3',
  'merge.4',
  'merge.5',
  'merge.6',
  'delegated-caller',
  'delegation.no-widening',
  'delegation.capped-by-grant',
  'grant-expiry',
  'grant-expiry.valid-until',
  'data-scope.default',
  'data-scope.widest',
  'data-scope.instances',
  'data-scope.office-without-offices',
  'data-scope.instance-over-excluding-scope',
  'data-scope.not-permitted',
  'tenant-isolation',
  'validation',
  'sequence',
];

const corpus = loadConformanceCorpus(__dirname);

function requestOf(spec: ConformanceRequest, file: ConformanceFile): DecisionRequest {
  const caller = { tenantId: file.tenantId ?? 't1', scopes: [], claimsDigest: 'conformance', ...spec.caller } as TrustedCaller;
  return { caller, action: spec.action, resource: spec.resource } as DecisionRequest;
}

interface RunOptions {
  /** Replays the case with the registration order reversed (merge rule 5). */
  reverse: boolean;
  featureEnabledVerdict: FeatureEnabledVerdict;
}

function engineFor(facts: InMemoryPolicyFacts, clock: () => Date, order: EvaluatorName[] | undefined, run: RunOptions): DecisionEngine {
  const standard = createStandardEvaluators(facts, { featureEnabledVerdict: run.featureEnabledVerdict });
  let evaluators = order ? order.map((name) => standard.find((e) => e.name === name)!) : standard;
  if (run.reverse) evaluators = [...evaluators].reverse();
  return new DecisionEngine({ facts, clock, evaluators });
}

function assertResult(result: DecisionEngineResult, expected: ConformanceExpectation, engine: DecisionEngine, orderMatters: boolean): void {
  expect(result.outcome).toBe(expected.outcome);
  expect(result.permitted).toBe(expected.outcome === 'Permit');
  const listed = Object.keys(expected.evaluators ?? {}).sort();
  expect(listed).toEqual([...engine.evaluatorNames].sort());
  for (const [name, want] of Object.entries(expected.evaluators ?? {})) {
    const got = result.evaluations.find((e) => e.evaluator === name);
    const verdict = typeof want === 'string' ? want : want.verdict;
    expect({ evaluator: name, verdict: got?.verdict }).toEqual({ evaluator: name, verdict });
    if (typeof want !== 'string') expect(got?.reason).toContain(want.reason);
  }
  const denials = result.evaluations.filter((e) => e.verdict === 'Deny').map((e) => e.evaluator);
  if (expected.denials) expect(orderMatters ? denials : [...denials].sort()).toEqual(orderMatters ? expected.denials : [...expected.denials].sort());
  if (expected.obligations)
    expect(orderMatters ? result.obligations : [...result.obligations].sort()).toEqual(orderMatters ? expected.obligations : [...expected.obligations].sort());
  if (expected.dataScope) expect(result.dataScope).toEqual(expected.dataScope);
  if (expected.validUntil !== undefined) expect(result.validUntil ?? null).toBe(expected.validUntil);
  if (expected.failure !== undefined) expect(result.failure ?? null).toBe(expected.failure);
  if (expected.reason === null) expect(result.reason).toBeUndefined();
  else if (expected.reason !== undefined) expect(result.reason).toContain(expected.reason);
}

/** The request is checked where it enters the service (`validateDecisionRequest`), then decided. */
async function decideAndCheck(engine: DecisionEngine, request: DecisionRequest, expected: ConformanceExpectation, orderMatters: boolean): Promise<void> {
  if (expected.error) {
    let error: unknown;
    try {
      validateDecisionRequest(request);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidDecisionRequestError);
    for (const field of expected.errorFields ?? []) expect((error as InvalidDecisionRequestError).errors).toHaveProperty([field]);
    return;
  }
  assertResult(await engine.decide(validateDecisionRequest(request)), expected, engine, orderMatters);
}

/** Runs a case on fresh facts under one setting and registration order. */
async function runCase(c: ConformanceCase, file: ConformanceFile, run: RunOptions): Promise<void> {
  const facts = InMemoryPolicyFacts.fromSnapshot(c.facts ?? file.facts ?? {});
  for (const store of c.failStores ?? []) facts.failStore(store);
  let now = new Date(c.now ?? file.now ?? '2026-06-01T12:00:00.000Z');
  const engine = engineFor(facts, () => now, c.evaluatorOrder, run);
  const expected = (e: ConformanceExpectation) => expectationUnder(e, run.featureEnabledVerdict);
  if (c.sequence === undefined) return decideAndCheck(engine, requestOf(c.request!, file), expected(c.expect!), !run.reverse);
  for (const step of c.sequence) {
    if ('change' in step) facts.apply(step.change);
    else if ('clock' in step) now = new Date(step.clock);
    else await decideAndCheck(engine, requestOf(step.decide, file), expected(step.expect), !run.reverse);
  }
}

describe('conformance corpus', () => {
  it('has files', () => {
    expect(corpus.length).toBeGreaterThan(0);
  });

  it('marks every case whose answer differs under the spec-literal feature setting', () => {
    const marked = corpus.flatMap(({ corpus: f }) =>
      f.cases.filter((c) => [c.expect, ...(c.sequence ?? []).map((s) => ('expect' in s ? s.expect : undefined))].some((e) => e?.specLiteral)),
    );
    expect(marked.length).toBeGreaterThan(0);
    for (const c of marked)
      expect({ name: c.name, covers: c.covers }).toEqual({ name: c.name, covers: expect.arrayContaining(['feature.allow.enabled.spec-literal']) });
  });

  it('covers every required tag and uses no unknown tag', () => {
    const used = new Set(corpus.flatMap(({ corpus: f }) => f.cases.flatMap((c) => c.covers)));
    expect(CONFORMANCE_TAGS.filter((tag) => !used.has(tag))).toEqual([]);
    expect([...used].filter((tag) => !CONFORMANCE_TAGS.includes(tag))).toEqual([]);
  });

  describe.each(corpus.map(({ file, corpus: f }) => [file, f] as const))('%s', (_, file) => {
    it.each(file.cases.map((c) => [c.name, c] as const))('%s', async (__, c) => {
      for (const featureEnabledVerdict of ['neutral', 'allow'] as const) {
        await runCase(c, file, { reverse: false, featureEnabledVerdict });
        await runCase(c, file, { reverse: true, featureEnabledVerdict });
      }
    });
  });
});

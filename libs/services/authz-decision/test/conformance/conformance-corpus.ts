import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthorizationAction, DataScope, DecisionOutcome, EvaluatorName, EvaluatorVerdict, ResourceDescriptor, TrustedCaller } from '@lp/contracts';
import { PolicyFactsChange, PolicyFactsSnapshot } from '../in-memory-policy-facts';
import { PolicyStoreName } from '../../src/engine/policy-facts';

/*
 * The declarative conformance corpus: JSON files beside this module, each a list of cases run
 * against `DecisionEngine` + `InMemoryPolicyFacts` by `conformance-corpus.spec.ts`. Test support
 * only; the service-level cache-invalidation sequences can reuse the same format.
 *
 * File: { description, tenantId?, now?, facts?, cases[] }  (file-level values are case defaults)
 * Case: { name, covers[], now?, facts?, failStores?, evaluatorOrder?, request + expect | sequence[] }
 * Step: { change: PolicyFactsChange } | { clock: ISO instant } | { decide: request, expect }
 */

export interface ConformanceFile {
  description: string;
  tenantId?: string;
  now?: string;
  facts?: PolicyFactsSnapshot;
  cases: ConformanceCase[];
}

export interface ConformanceCase {
  name: string;
  /** Coverage tags (see `CONFORMANCE_TAGS` in the runner): what this case demonstrates. */
  covers: string[];
  now?: string;
  /** Replaces the file's facts for this case. */
  facts?: PolicyFactsSnapshot;
  failStores?: PolicyStoreName[];
  /** Registration order for this case; the runner also replays every case in reverse order. */
  evaluatorOrder?: EvaluatorName[];
  request?: ConformanceRequest;
  expect?: ConformanceExpectation;
  sequence?: ConformanceStep[];
}

/** A request with caller defaults filled in by the runner: tenant of the file, no scopes, a digest. */
export interface ConformanceRequest {
  caller: Partial<TrustedCaller> & Pick<TrustedCaller, 'kind' | 'subject'>;
  action: AuthorizationAction | string;
  resource: Partial<ResourceDescriptor>;
}

/** Verdict only, or verdict with a substring the reason must contain. */
export type EvaluatorExpectation = EvaluatorVerdict | { verdict: EvaluatorVerdict; reason: string };

export interface ConformanceExpectation {
  outcome?: DecisionOutcome;
  /** Every evaluator of the run must be listed: a corpus case states the whole table row. */
  evaluators?: Partial<Record<EvaluatorName, EvaluatorExpectation>>;
  /** Evaluators that denied, in the order reported. */
  denials?: EvaluatorName[];
  obligations?: string[];
  dataScope?: DataScope;
  /** A substring of `DecisionResult.reason`, or null for none. */
  reason?: string | null;
  /** ISO instant, or null for "no validUntil". */
  validUntil?: string | null;
  /** `DecisionResult.failure`, or null for none. */
  failure?: string | null;
  /** Name of the error class `decide` must throw instead of answering. */
  error?: 'InvalidDecisionRequestError';
  /** Fields the thrown validation error must name. */
  errorFields?: string[];
  /**
   * What differs under `AUTHZ_FEATURE_ENABLED_VERDICT=allow` (spec §1 read literally: an enabled
   * feature is an Allow). Merged over the expectation (evaluators key by key) for that run; a case
   * without it must answer the same under both settings.
   */
  specLiteral?: Omit<ConformanceExpectation, 'specLiteral' | 'error' | 'errorFields'>;
}

export type ConformanceStep = { change: PolicyFactsChange } | { clock: string } | { decide: ConformanceRequest; expect: ConformanceExpectation };

const FILE_KEYS = ['description', 'tenantId', 'now', 'facts', 'cases'];
const CASE_KEYS = ['name', 'covers', 'now', 'facts', 'failStores', 'evaluatorOrder', 'request', 'expect', 'sequence'];
const EXPECT_KEYS = ['outcome', 'evaluators', 'denials', 'obligations', 'dataScope', 'validUntil', 'failure', 'reason', 'error', 'errorFields', 'specLiteral'];

function assertKeys(value: object, allowed: string[], where: string): void {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  // A misspelt expectation key would silently assert nothing: refuse it.
  if (unknown.length > 0) throw new Error(`${where}: unknown keys ${unknown.join(', ')}`);
}

function checkExpectation(expectation: ConformanceExpectation | undefined, where: string): void {
  if (!expectation || typeof expectation !== 'object') throw new Error(`${where}: expect is required`);
  assertKeys(expectation, EXPECT_KEYS, `${where}.expect`);
  if (!expectation.error && !expectation.outcome) throw new Error(`${where}: expect needs an outcome or an error`);
  if (expectation.specLiteral)
    assertKeys(
      expectation.specLiteral,
      EXPECT_KEYS.filter((k) => !['error', 'errorFields', 'specLiteral'].includes(k)),
      `${where}.expect.specLiteral`,
    );
}

/** The expectation of one run: under `allow`, the case's `specLiteral` differences merged over it. */
export function expectationUnder(expectation: ConformanceExpectation, featureEnabledVerdict: 'allow' | 'neutral'): ConformanceExpectation {
  const { specLiteral, ...base } = expectation;
  if (featureEnabledVerdict === 'neutral' || !specLiteral) return base;
  return { ...base, ...specLiteral, evaluators: { ...base.evaluators, ...specLiteral.evaluators } };
}

/** Reads and shape-checks every `*.json` file of the corpus directory, sorted by name. */
export function loadConformanceCorpus(directory: string): { file: string; corpus: ConformanceFile }[] {
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return files.map((file) => {
    const corpus = JSON.parse(readFileSync(join(directory, file), 'utf8')) as ConformanceFile;
    assertKeys(corpus, FILE_KEYS, file);
    if (!Array.isArray(corpus.cases) || corpus.cases.length === 0) throw new Error(`${file}: no cases`);
    for (const c of corpus.cases) {
      const where = `${file} › ${c.name}`;
      assertKeys(c, CASE_KEYS, where);
      if (!Array.isArray(c.covers) || c.covers.length === 0) throw new Error(`${where}: covers is required`);
      if (c.sequence === undefined) {
        if (!c.request) throw new Error(`${where}: needs a request or a sequence`);
        checkExpectation(c.expect, where);
      } else {
        if (c.request || c.expect) throw new Error(`${where}: a sequence case has its requests in its steps`);
        c.sequence.forEach((step, i) => {
          const keys = Object.keys(step).sort().join(',');
          if (!['change', 'clock', 'decide,expect'].includes(keys)) throw new Error(`${where} step ${i}: unknown step ${keys}`);
          if ('decide' in step) checkExpectation(step.expect, `${where} step ${i}`);
        });
      }
    }
    return { file, corpus };
  });
}

/** Where the corpus files are: runners elsewhere (the e2e project) read them through this, not by path. */
export const CONFORMANCE_CORPUS_DIRECTORY = __dirname;

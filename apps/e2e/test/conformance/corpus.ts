import {
  CONFORMANCE_CORPUS_DIRECTORY,
  ConformanceCase,
  ConformanceFile,
  loadConformanceCorpus as loadCorpusFrom,
  PolicyFactsSnapshot,
} from '@lp/service/authz-decision/testing';

export { expectationUnder } from '@lp/service/authz-decision/testing';

/*
 * The declarative conformance corpus of the decision core, read as data with the core's own schema
 * and loader (exported by authz-decision's entry point). The corpus files are the single source of
 * the cases; this module only adds what the service-level runner needs on top.
 */
export type {
  AbacConditionSnapshot,
  AbacRuleSnapshot,
  ConformanceCase,
  ConformanceExpectation,
  ConformanceFile,
  ConformanceRequest,
  ConformanceStep,
  DelegatedGrantSnapshot,
  EvaluatorExpectation,
  PolicyFactsChange,
  PolicyFactsSnapshot,
  TemporaryGrantSnapshot,
  TenantFactsSnapshot,
} from '@lp/service/authz-decision/testing';
export type { DataScopeSetting, PolicyStoreName, RelationSnapshot } from '@lp/service/authz-decision';

export const CORPUS_DIRECTORY = CONFORMANCE_CORPUS_DIRECTORY;

/** The documented default instant of a case without `now` (the in-memory runner's default). */
export const DEFAULT_CORPUS_NOW = '2026-06-01T12:00:00.000Z';

/** Every `*.json` file of the corpus, sorted by name, shape-checked by the core's loader. */
export function loadConformanceCorpus(directory = CORPUS_DIRECTORY): { file: string; corpus: ConformanceFile }[] {
  const files = loadCorpusFrom(directory);
  if (files.length === 0) throw new Error(`no conformance corpus under ${directory}`);
  return files;
}

/** The facts a case starts from: its own, else its file's (the in-memory runner's rule). */
export function factsOf(c: ConformanceCase, file: ConformanceFile): PolicyFactsSnapshot {
  return c.facts ?? file.facts ?? {};
}

export function nowOf(c: ConformanceCase, file: ConformanceFile): string {
  return c.now ?? file.now ?? DEFAULT_CORPUS_NOW;
}

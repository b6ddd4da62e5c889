import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DataScope, DecisionOutcome, EvaluatorName, EvaluatorVerdict, TrustedCaller } from '@lp/contracts';

/*
 * The declarative conformance corpus of the decision core, read as data. Its schema lives in
 * `libs/services/authz-decision/src/decision/conformance/conformance-corpus.ts`; that module is not
 * part of the service's public entry point (and the standalone app may only import entry points),
 * so the shape is restated here, read-only. The corpus files are the single source of the cases.
 */

export const CORPUS_DIRECTORY = resolve(__dirname, '../../../../libs/services/authz-decision/src/decision/conformance');

/** The documented default instant of a case without `now` (the in-memory runner's default). */
export const DEFAULT_CORPUS_NOW = '2026-06-01T12:00:00.000Z';

export type DataScopeSetting = 'tenant' | 'office' | 'own' | 'none';
export type PolicyStoreName = 'subjectPermissions' | 'abacRules' | 'relations' | 'features';

export interface TemporaryGrantSnapshot {
  grantId: string;
  permissions: string[];
  expiresAt: string;
  dataScope?: DataScopeSetting;
}

export interface DelegatedGrantSnapshot {
  grantId: string;
  actor: string;
  permissions: string[];
  expiresAt: string;
}

export interface AbacConditionSnapshot {
  field: number | string;
  operator: number | string;
  value?: unknown;
}

export interface AbacRuleSnapshot {
  id: string;
  name?: string;
  priority: number;
  verdict: number | string;
  conditions: AbacConditionSnapshot[];
  actions?: string[];
  modules?: string[];
  resourceTypes?: string[];
  obligations?: string[];
}

export interface RelationSnapshot {
  subject: string;
  resourceType: string;
  resourceId: string;
  relation: string;
}

export interface TenantFactsSnapshot {
  roles?: Record<string, { dataScope: DataScopeSetting; permissions: string[] }>;
  bindings?: Record<string, string[]>;
  offices?: Record<string, string[]>;
  temporaryGrants?: Record<string, TemporaryGrantSnapshot[]>;
  delegatedGrants?: Record<string, DelegatedGrantSnapshot[]>;
  abacRules?: AbacRuleSnapshot[];
  relations?: RelationSnapshot[];
  featureOverrides?: Record<string, boolean>;
}

export interface PolicyFactsSnapshot {
  featureDefaults?: Record<string, boolean>;
  tenants?: Record<string, TenantFactsSnapshot>;
}

export type PolicyFactsChange =
  | { op: 'defineRole'; tenantId: string; roleName: string; dataScope: DataScopeSetting; permissions: string[] }
  | { op: 'deleteRole'; tenantId: string; roleName: string }
  | { op: 'bindRole'; tenantId: string; subject: string; roleName: string }
  | { op: 'unbindRole'; tenantId: string; subject: string; roleName: string }
  | { op: 'setOffices'; tenantId: string; subject: string; officeIds: string[] }
  | { op: 'grantTemporary'; tenantId: string; subject: string; grant: TemporaryGrantSnapshot }
  | { op: 'revokeTemporary'; tenantId: string; subject: string; grantId: string }
  | { op: 'delegate'; tenantId: string; delegator: string; grant: DelegatedGrantSnapshot }
  | { op: 'revokeDelegation'; tenantId: string; delegator: string; grantId: string }
  | { op: 'putAbacRule'; tenantId: string; rule: AbacRuleSnapshot }
  | { op: 'deleteAbacRule'; tenantId: string; ruleId: string }
  | { op: 'addRelation'; tenantId: string; relation: RelationSnapshot }
  | { op: 'removeRelation'; tenantId: string; relation: RelationSnapshot }
  | { op: 'setFeatureDefault'; featureCode: string; enabled: boolean | null }
  | { op: 'setFeatureOverride'; tenantId: string; featureCode: string; enabled: boolean | null }
  | { op: 'failStore'; store: PolicyStoreName }
  | { op: 'restoreStore'; store: PolicyStoreName };

export interface ConformanceRequest {
  caller: Partial<TrustedCaller> & Pick<TrustedCaller, 'kind' | 'subject'>;
  action: string;
  resource: Record<string, unknown>;
}

export type EvaluatorExpectation = EvaluatorVerdict | { verdict: EvaluatorVerdict; reason: string };

export interface ConformanceExpectation {
  outcome?: DecisionOutcome;
  evaluators?: Partial<Record<EvaluatorName, EvaluatorExpectation>>;
  denials?: EvaluatorName[];
  obligations?: string[];
  dataScope?: DataScope;
  validUntil?: string | null;
  failure?: string | null;
  error?: 'InvalidDecisionRequestError';
  errorFields?: string[];
}

export type ConformanceStep =
  | { change: PolicyFactsChange }
  | { clock: string }
  | { decide: ConformanceRequest; expect: ConformanceExpectation };

export interface ConformanceCase {
  name: string;
  covers: string[];
  now?: string;
  facts?: PolicyFactsSnapshot;
  failStores?: PolicyStoreName[];
  evaluatorOrder?: EvaluatorName[];
  request?: ConformanceRequest;
  expect?: ConformanceExpectation;
  sequence?: ConformanceStep[];
}

export interface ConformanceFile {
  description: string;
  tenantId?: string;
  now?: string;
  facts?: PolicyFactsSnapshot;
  cases: ConformanceCase[];
}

const FILE_KEYS = ['description', 'tenantId', 'now', 'facts', 'cases'];
const CASE_KEYS = ['name', 'covers', 'now', 'facts', 'failStores', 'evaluatorOrder', 'request', 'expect', 'sequence'];
const EXPECT_KEYS = ['outcome', 'evaluators', 'denials', 'obligations', 'dataScope', 'validUntil', 'failure', 'error', 'errorFields'];

function refuseUnknownKeys(value: object, allowed: string[], where: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  // A key this runner does not know would be silently ignored on the service: refuse it instead.
  if (unknown.length > 0) throw new Error(`${where}: keys this runner does not know: ${unknown.join(', ')}`);
}

/** Every `*.json` file of the corpus, sorted by name, with the keys this runner understands. */
export function loadConformanceCorpus(directory = CORPUS_DIRECTORY): { file: string; corpus: ConformanceFile }[] {
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new Error(`no conformance corpus under ${directory}`);
  return files.map((file) => {
    const corpus = JSON.parse(readFileSync(join(directory, file), 'utf8')) as ConformanceFile;
    refuseUnknownKeys(corpus, FILE_KEYS, file);
    for (const c of corpus.cases) {
      const where = `${file} › ${c.name}`;
      refuseUnknownKeys(c, CASE_KEYS, where);
      if (c.expect) refuseUnknownKeys(c.expect, EXPECT_KEYS, `${where}.expect`);
      for (const [i, step] of (c.sequence ?? []).entries()) {
        const keys = Object.keys(step).sort().join(',');
        if (!['change', 'clock', 'decide,expect'].includes(keys)) throw new Error(`${where} step ${i}: unknown step ${keys}`);
        if ('expect' in step) refuseUnknownKeys(step.expect, EXPECT_KEYS, `${where} step ${i}.expect`);
      }
    }
    return { file, corpus };
  });
}

/** The facts a case starts from: its own, else its file's (the in-memory runner's rule). */
export function factsOf(c: ConformanceCase, file: ConformanceFile): PolicyFactsSnapshot {
  return c.facts ?? file.facts ?? {};
}

export function nowOf(c: ConformanceCase, file: ConformanceFile): string {
  return c.now ?? file.now ?? DEFAULT_CORPUS_NOW;
}

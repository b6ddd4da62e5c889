import { EvaluatorName, EvaluatorResult, PermissionCode, ValidDecisionRequest } from '@lp/contracts';
import { DataScopeSetting, PolicyStoreName, RelationName, RevisionSnapshot } from './policy-facts';

/** What every evaluator of one decision sees: the same validated request and the same instant. */
export interface EvaluationContext {
  /** Validated; `module` and `resourceType` in lower case. */
  readonly request: ValidDecisionRequest;
  /** `{module}.{resource}.{action}` of the request. */
  readonly permissionCode: PermissionCode;
  /** Sampled once per decision so every evaluator judges expiry at the same instant. */
  readonly now: Date;
  /**
   * Set by `DecisionEngine.decide`: nobody will read `inputs` (a trace for `explain`), so an
   * evaluator may answer `NO_INPUTS` instead of building them; they cost every uncached decision.
   */
  readonly skipInputs?: boolean;
  /** The decision's revision counters, for fact readers that cache (see `RevisionSnapshot`). */
  readonly revisions?: RevisionSnapshot;
}

/** The `inputs` of an evaluator outcome when the context skips them. */
export const NO_INPUTS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Row-scope facts behind an Allow, consumed by DataScope resolution. Only the source that decided
 * an Allow reports evidence, so the DataScope follows what actually permitted the request.
 */
export type ScopeEvidence =
  | { source: 'role'; roleName: string; setting: DataScopeSetting; officeIds: readonly string[] }
  | { source: 'temporary-grant'; grantId: string; setting?: DataScopeSetting; officeIds: readonly string[] }
  | { source: 'relation'; relation: RelationName; resourceType: string; resourceId: string };

export interface EvaluatorOutcome {
  result: EvaluatorResult;
  /** What the evaluator considered, for `explain()`; plain JSON-friendly data (`NO_INPUTS` without `trace`). */
  inputs: Readonly<Record<string, unknown>>;
  scope?: readonly ScopeEvidence[];
  /** Expiry of every temporary or delegated grant behind an Allow (bounds cache lifetime). */
  grantExpiries?: readonly Date[];
  /** Set when a store failure decided the verdict (fail-closed). */
  storeFailure?: PolicyStoreName;
}

/**
 * One policy source of spec §1. `evaluate` resolves with a verdict for every request; a rejection
 * is treated by the engine as a fail-closed Deny, never as a missing result.
 */
export interface DecisionEvaluator {
  readonly name: EvaluatorName;
  evaluate(context: EvaluationContext): Promise<EvaluatorOutcome>;
}

/**
 * The error text of a store failure, for the explain trace only: verdict reasons stay generic
 * because they reach clients and the audit record.
 */
export function describeStoreError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

import { randomUUID } from 'node:crypto';
import {
  DataScope,
  DecisionRequest,
  DecisionResult,
  EvaluatorName,
  EvaluatorResult,
  permissionCode,
  PermissionCode,
  ValidDecisionRequest,
} from '@lp/contracts';
import { AbacEvaluator } from './abac.evaluator';
import { AppScopeEvaluator } from './app-scope.evaluator';
import { Clock, systemClock } from './clock';
import { DataScopeResolution, DataScopeResolver, resolveDataScopeWithTrace } from './data-scope.resolver';
import { MergedDecision, mergeEvaluations } from './decision-merge';
import { DecisionEvaluator, EvaluationContext, EvaluatorOutcome } from './evaluator';
import { FeatureEnabledVerdict, FeatureEvaluator } from './feature.evaluator';
import { PolicyFactsReader, PolicyStoreName, RevisionSnapshot } from './policy-facts';
import { RbacEvaluator } from './rbac.evaluator';
import { RebacEvaluator } from './rebac.evaluator';
import { applyTenantStanding, readTenantStanding, TenantStanding } from './tenant-standing';

/** `DecisionResult.failure` values set by the engine. */
export const DecisionFailure = {
  /** A policy store failed and its evaluator failed closed. */
  PolicyStoreUnavailable: 'PolicyStoreUnavailable',
  /** An evaluator threw instead of answering; the engine counted it as a Deny. */
  EvaluatorFailed: 'EvaluatorFailed',
} as const;

/**
 * What the engine answers. `validUntil` (ISO instant) is the earliest expiry of any temporary or
 * delegated grant behind an Allow: a cache entry for the decision must not outlive it. Absent when
 * no grant was involved. (Candidate for `DecisionResult` in contracts.)
 */
export interface DecisionEngineResult extends DecisionResult {
  validUntil?: string;
}

export interface EvaluatorTrace extends EvaluatorResult {
  inputs: Record<string, unknown>;
  storeFailure?: PolicyStoreName;
  /** Message of the error an evaluator threw (counted as Deny). */
  error?: string;
}

/** The full account of one decision, for debugging and the `authz.explain` RPC. */
export interface DecisionExplanation {
  decision: DecisionEngineResult;
  request: DecisionRequest;
  permissionCode: PermissionCode;
  evaluatedAt: string;
  /** In registration order. */
  evaluators: EvaluatorTrace[];
  merge: MergedDecision;
  dataScope: DataScopeResolution;
}

export interface DecideOptions {
  /** The decision's revision counters, read once by the caller (see `RevisionSnapshot`). */
  revisions?: RevisionSnapshot;
}

export interface DecisionEngineOptions {
  facts: PolicyFactsReader;
  clock?: Clock;
  /** Registration order; defaults to `createStandardEvaluators(facts)`. */
  evaluators?: readonly DecisionEvaluator[];
  /** What an enabled feature answers when `evaluators` is not given; default `neutral`. */
  featureEnabledVerdict?: FeatureEnabledVerdict;
  newDecisionId?: () => string;
  /**
   * Where `resolveDataScope` (a decision-cache hit) reads its facts; defaults to `facts`. The
   * service passes a reader with the DataScope and ReBAC caches, which have their own invalidation.
   */
  scopeFacts?: PolicyFactsReader;
}

export interface StandardEvaluatorOptions {
  /** What an enabled feature answers (`AUTHZ_FEATURE_ENABLED_VERDICT`); default `neutral`. */
  featureEnabledVerdict?: FeatureEnabledVerdict;
}

/** The five evaluators of spec §1 in their documented registration order. */
export function createStandardEvaluators(facts: PolicyFactsReader, options: StandardEvaluatorOptions = {}): DecisionEvaluator[] {
  return [
    new RbacEvaluator(facts),
    new AppScopeEvaluator(),
    new AbacEvaluator(facts),
    new RebacEvaluator(facts),
    new FeatureEvaluator(facts, options.featureEnabledVerdict),
  ];
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The decision core: validates the request, runs every evaluator concurrently against the same
 * instant, merges (spec §1), resolves the DataScope and stamps a decision id. Pure apart from the
 * facts port, the clock and the id generator; caching and audit belong to the service around it.
 */
export class DecisionEngine {
  private readonly facts: PolicyFactsReader;
  private readonly clock: Clock;
  private readonly evaluators: readonly DecisionEvaluator[];
  private readonly newDecisionId: () => string;
  private readonly dataScopes: DataScopeResolver;

  constructor(options: DecisionEngineOptions) {
    this.facts = options.facts;
    this.clock = options.clock ?? systemClock;
    this.evaluators = [...(options.evaluators ?? createStandardEvaluators(options.facts, { featureEnabledVerdict: options.featureEnabledVerdict }))];
    this.newDecisionId = options.newDecisionId ?? randomUUID;
    this.dataScopes = new DataScopeResolver(options.scopeFacts ?? this.facts, this.clock);
    const names = this.evaluators.map((e) => e.name);
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    // Two evaluators under one name would make the evaluations ambiguous in the audit record.
    if (duplicate) throw new Error(`Evaluator ${duplicate} is registered twice`);
  }

  get evaluatorNames(): EvaluatorName[] {
    return this.evaluators.map((e) => e.name);
  }

  /**
   * The decision alone: evaluators skip their explain `inputs`, and no trace is assembled (this is
   * the path of every uncached decision). The request was checked where it entered the service
   * (`validateDecisionRequest`); it is not checked again here.
   */
  async decide(request: ValidDecisionRequest, options: DecideOptions = {}): Promise<DecisionEngineResult> {
    return (await this.evaluate(request, false, options.revisions)).decision;
  }

  /** Decides and returns every evaluator's inputs and verdict, the merge and the DataScope resolution. */
  async explain(request: ValidDecisionRequest, options: DecideOptions = {}): Promise<DecisionExplanation> {
    const { decision, valid, context, outcomes, merge, dataScope } = await this.evaluate(request, true, options.revisions);
    return {
      decision,
      request: valid,
      permissionCode: context.permissionCode,
      evaluatedAt: context.now.toISOString(),
      evaluators: outcomes.map(({ outcome, error }) => ({
        ...outcome.result,
        inputs: outcome.inputs,
        ...(outcome.storeFailure ? { storeFailure: outcome.storeFailure } : {}),
        ...(error !== undefined ? { error } : {}),
      })),
      merge,
      dataScope,
    };
  }

  private async evaluate(valid: ValidDecisionRequest, trace: boolean, revisions: RevisionSnapshot | undefined) {
    const now = this.clock();
    const context: EvaluationContext = {
      request: valid,
      permissionCode: permissionCode(valid.resource.module, valid.resource.resourceType, valid.action),
      now,
      skipInputs: !trace,
      revisions,
    };
    // Spec §1 merge rule 1: every evaluator runs, whatever another one answers. The tenant's
    // standing is read beside them (no extra latency) and ruled on over their merge.
    const [outcomes, standing] = await Promise.all([
      Promise.all(this.evaluators.map((evaluator) => this.run(evaluator, context))),
      readTenantStanding(this.facts, valid.caller.tenantId, revisions),
    ]);

    const delegated = valid.caller.kind === 'delegated';
    const evaluated = applyTenantStanding(
      mergeEvaluations(
        outcomes.map((o) => o.outcome.result),
        { delegated },
      ),
      valid.caller.tenantId,
      standing,
    );
    // A delegated caller is permitted only through RBAC's delegated-grant Allow, so only that Allow
    // shapes its scope and expiry: a relation or a rule of the delegator cannot widen the grant.
    const allowing = outcomes.filter((o) => o.outcome.result.verdict === 'Allow' && (!delegated || o.outcome.result.evaluator === 'RBAC'));
    const expiries = allowing.flatMap((o) => o.outcome.grantExpiries ?? []).map((d) => d.getTime());
    const merge = this.expiredInFlight(evaluated, expiries);
    const dataScope = resolveDataScopeWithTrace({
      caller: valid.caller,
      resource: valid.resource,
      permitted: merge.permitted,
      evidence: allowing.flatMap((o) => o.outcome.scope ?? []),
    });
    const failure = outcomes.some((o) => o.error !== undefined)
      ? DecisionFailure.EvaluatorFailed
      : outcomes.some((o) => o.outcome.storeFailure !== undefined) || isUnavailable(standing)
        ? DecisionFailure.PolicyStoreUnavailable
        : undefined;

    const decision: DecisionEngineResult = {
      outcome: merge.outcome,
      permitted: merge.permitted,
      decisionId: this.newDecisionId(),
      evaluations: outcomes.map((o) => o.outcome.result),
      obligations: merge.obligations,
      dataScope: dataScope.dataScope,
      cached: false,
    };
    if (failure) decision.failure = failure;
    if (REASONED_RULES.has(merge.rule)) decision.reason = `${merge.rule}: ${merge.denialReasons[0]}`;
    if (expiries.length > 0) decision.validUntil = validUntilOf(expiries, now);
    return { decision, valid, context, outcomes, merge, dataScope };
  }

  /**
   * The DataScope of a decision taken earlier (a decision-cache hit) from current facts, without
   * evaluating policy again (spec §1 cache rule 3). Rejects on a store failure: fail closed.
   */
  resolveDataScope(request: ValidDecisionRequest, permitted: boolean, revisions?: RevisionSnapshot): Promise<DataScope> {
    return this.dataScopes.resolve(request, permitted, revisions);
  }

  /**
   * Evaluators judge expiry at the instant sampled before they run. A grant behind the Allow that
   * expired while they ran (a slow store read) must not permit: checked again once they are done.
   */
  private expiredInFlight(merge: MergedDecision, expiries: number[]): MergedDecision {
    if (!merge.permitted || expiries.length === 0) return merge;
    const earliest = Math.min(...expiries);
    const finishedAt = this.clock().getTime();
    if (Number.isFinite(earliest) && earliest > finishedAt) return merge;
    const when = Number.isFinite(earliest) ? new Date(earliest).toISOString() : 'an unreadable instant';
    return {
      outcome: 'Deny',
      permitted: false,
      rule: 'GrantExpiredInFlight',
      denialReasons: [`a grant behind the Allow expired at ${when}, before the decision completed`],
      obligations: [],
    };
  }

  private async run(evaluator: DecisionEvaluator, context: EvaluationContext): Promise<{ outcome: EvaluatorOutcome; error?: string }> {
    try {
      const outcome = await evaluator.evaluate(context);
      // The name is the engine's to vouch for: an evaluator cannot report under another's name.
      return { outcome: { ...outcome, result: { ...outcome.result, evaluator: evaluator.name } } };
    } catch (error) {
      const text = errorText(error);
      return {
        outcome: { result: { evaluator: evaluator.name, verdict: 'Deny', reason: 'evaluator failed (fail-closed)' }, inputs: {} },
        error: text,
      };
    }
  }
}

/** Merge rules that are not one evaluator's Deny: the decision says which in `reason` (`{rule}: {why}`). */
const REASONED_RULES: ReadonlySet<string> = new Set(['DelegationNotCovered', 'GrantExpiredInFlight', 'TenantSuspended', 'TenantStatusUnavailable']);

function isUnavailable(standing: TenantStanding): boolean {
  return 'unavailable' in standing;
}

/** An unreadable expiry from a custom evaluator bounds the entry at `now`: an unknown bound must not be cached. */
function validUntilOf(expiries: number[], now: Date): string {
  const earliest = Math.min(...expiries);
  return new Date(Number.isFinite(earliest) ? earliest : now.getTime()).toISOString();
}

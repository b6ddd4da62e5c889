import type { ApiClient } from '../../api/client';
import type { Evaluation, Outcome, SimulatedDecision } from './simulation-api';
import type { Question } from './question';

export const EXPLAIN = '/api/authorization/decisions/explain';

type DataScope = SimulatedDecision['dataScope'];

/** One evaluator of a live decision: its say, and what it looked at (its own shape per evaluator). */
export interface EvaluatorTrace extends Evaluation {
  inputs: Record<string, unknown>;
  /** The policy store it could not read (it then denied, fail-closed). */
  storeFailure?: string;
  /** It threw (counted as Deny); the message stays in the platform. */
  failed?: boolean;
}

/** `POST /decisions/explain`'s answer: the signed-in user's own decision, decided afresh and audited. */
export interface LiveExplanation {
  decision: { outcome: Outcome | string; decisionId: string; reasons: Evaluation[]; dataScope: DataScope; refusal?: string };
  question: { caller: { kind: string; subject: string; tenantId: string; scopes: string[] }; resource: Record<string, unknown>; action: string };
  permissionCode: string;
  evaluatedAt: string;
  evaluators: EvaluatorTrace[];
  merge: { outcome: string; permitted: boolean; rule: string; denialReasons: string[]; obligations: string[] };
  dataScope: { dataScope: DataScope; rule: string; candidates: DataScope[] };
}

/**
 * Facts a live request states itself: the resource facts of the decision route. Owner and office
 * are loaded by the service that owns the resource, so a live question cannot carry them.
 */
const LIVE_FACTS = ['resourceId', 'status', 'sensitivity'] as const;

/** The question's fields a live decision leaves out (the simulator takes them, the decision route does not). */
export function factsLeftOut(question: Question): string[] {
  return (['owner', 'officeId'] as const).filter((field) => question[field].trim() !== '');
}

/** `POST /decisions/explain`'s body: `{ resource, action }`; the caller is the token's. */
export function liveDecisionBody(question: Question) {
  const resource: Record<string, string | number> = { module: question.module.trim(), resourceType: question.resourceType.trim() };
  for (const field of LIVE_FACTS) {
    const value = question[field].trim();
    if (value) resource[field] = value;
  }
  const amount = question.amount.trim();
  if (amount) resource.amount = Number.isFinite(Number(amount)) ? Number(amount) : amount;
  return { resource, action: question.action };
}

export function explainLive(api: ApiClient, question: Question): Promise<LiveExplanation> {
  return api.post<LiveExplanation>(EXPLAIN, liveDecisionBody(question));
}

/** What a merge rule means (spec §1 merge rules and the tenant rule over them). */
export function mergeRuleMeaning(rule: string): string {
  switch (rule) {
    case 'AnyDeny':
      return 'an evaluator denies, and a Deny always wins';
    case 'AnyAllow':
      return 'an evaluator allows and none denies';
    case 'AllNeutral':
      return 'every evaluator is neutral: nothing grants it';
    case 'DelegationNotCovered':
      return 'a delegated caller is permitted only through its delegated grant';
    case 'GrantExpiredInFlight':
      return 'a grant behind the Allow expired before the decision completed';
    case 'TenantSuspended':
      return 'the tenant is suspended';
    case 'TenantStatusUnavailable':
      return "the tenant's status could not be read (fail-closed)";
    default:
      return '';
  }
}

/** How the DataScope was chosen (the engine's DataScope resolver). */
export function dataScopeRuleMeaning(rule: string): string {
  switch (rule) {
    case 'not-permitted':
      return 'not permitted: no rows';
    case 'default':
      return "the caller kind's default setting";
    case 'widest':
      return 'the widest scope any allowing source offers';
    case 'instance-over-excluding-scope':
      return 'the instances a relation reaches, since the widest scope does not include the asked resource';
    default:
      return '';
  }
}

import { useQuery } from '@tanstack/react-query';
import type { ApiClient, Page } from '../../api/client';
import { useSession } from '../../api/session';
import { PolicyOverlay, Question, simulationBody } from './question';

export const EVALUATE = '/api/authorization/permission-simulation/evaluate';
export const REPLAY = '/api/authorization/permission-simulation/replay';

export type Outcome = 'Permit' | 'Deny' | 'NoMatchingPolicy';

/** One evaluator's say: Allow, Deny or Neutral, with its reason. */
export interface Evaluation {
  evaluator: string;
  verdict: 'Allow' | 'Deny' | 'Neutral' | string;
  reason: string;
  obligations?: string[];
}

/** `POST /permission-simulation/evaluate`'s answer. */
export interface SimulatedDecision {
  outcome: Outcome | string;
  permitted: boolean;
  evaluations: Evaluation[];
  obligations: string[];
  dataScope: { kind?: string; tenantId?: string; officeIds?: string[]; subject?: string; resourceType?: string; resourceIds?: string[] };
  failure?: string;
}

export interface ReplayFlip {
  decisionId: string;
  decidedAt: string;
  callerKind: string;
  subject: string;
  actor?: string;
  clientId?: string;
  action: string;
  resource: Record<string, unknown>;
  recorded: string;
  before: string;
  after: string;
}

export interface ReplayResult {
  replayed: number;
  skipped: number;
  flipped: ReplayFlip[];
}

/** The key of every simulator answer: asking again invalidates them all. */
export const SIMULATION_KEY = ['why', 'simulation'] as const;

/**
 * The simulator's answer for `question`, on the saved policy (`overlay` undefined) or with proposed
 * changes. Nothing is written, cached server-side or audited; `enabled` holds it until asked.
 */
export function useSimulation(question: Question, overlay: PolicyOverlay | undefined, enabled: boolean) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...SIMULATION_KEY, overlay ? 'with-changes' : 'saved', question, overlay ?? null],
    queryFn: ({ signal }) => evaluate(api, question, overlay, signal),
    enabled,
    staleTime: 0,
  });
}

function evaluate(api: ApiClient, question: Question, overlay: PolicyOverlay | undefined, signal: AbortSignal): Promise<SimulatedDecision> {
  return api.request<SimulatedDecision>('POST', EVALUATE, { body: simulationBody(question, overlay), signal });
}

/** A page over a list the API answers whole (the replay's flips), for the shared Pager. */
export function pageOf<T>(items: T[], pageIndex: number, pageSize: number): Page<T> {
  const last = Math.max(0, Math.ceil(items.length / pageSize) - 1);
  const index = Math.min(Math.max(0, pageIndex), last);
  return { items: items.slice(index * pageSize, (index + 1) * pageSize), pageIndex: index, pageSize, totalCount: items.length };
}

/**
 * What a fired node timeout does to its task, decided from the node's `timeout` (pure: the runner
 * resolves the escalation's subjects before it asks). The runtime carries a plan out through the
 * paths a person's act takes (`RuntimeService.onTimeout`).
 */
import type { ApprovalNode, TimeoutAction } from '../engine';

/** The actor timeouts are attributed to: `decidedBy` of their votes and hand-overs, `by` of their events. */
export const TIMEOUT_ACTOR = 'workflow-engine:timeout';

export type TimeoutPlan =
  | { kind: 'remind' }
  | { kind: 'vote'; decision: 'approve' | 'reject'; comment: string }
  /** The seat passes to the first candidate who holds none at the node visit; nobody fits: a reminder instead. */
  | { kind: 'hand-over'; candidates: string[]; comment: string };

export type NodeTimeout = NonNullable<ApprovalNode['timeout']>;

/** The plan of `timeout`; `escalation` is what `escalateTo` resolved to (ignored by the other actions). */
export function planOf(timeout: NodeTimeout, escalation: readonly string[] = []): TimeoutPlan {
  const comment = `No decision within ${String(timeout.after)}${typeof timeout.after === 'number' ? ' s' : ''}: ${timeout.action} by timeout.`;
  const byAction: Record<TimeoutAction, () => TimeoutPlan> = {
    remind: () => ({ kind: 'remind' }),
    'auto-approve': () => ({ kind: 'vote', decision: 'approve', comment }),
    'auto-reject': () => ({ kind: 'vote', decision: 'reject', comment }),
    transfer: () => ({ kind: 'hand-over', candidates: timeout.transferTo ? [timeout.transferTo] : [], comment }),
    escalate: () => ({ kind: 'hand-over', candidates: [...escalation], comment }),
  };
  return byAction[timeout.action]();
}

/** Actions that hand the seat over: a seat handed over by a timeout at a visit is not armed for another hand-over there. */
export const HANDS_OVER: ReadonlySet<TimeoutAction> = new Set(['transfer', 'escalate']);

/** The PostgreSQL interval of a definition duration: an ISO 8601 duration as it is (PostgreSQL reads them), seconds as `PT{n}S`. */
export function intervalOf(duration: string | number): string {
  return typeof duration === 'number' ? `PT${duration}S` : duration;
}

import { ApprovalNode, decideApproval } from '../engine';
import type { TaskRow } from '../runtime/runtime.repository';
import type { NodeDecisionResponse, VoteResponse } from './dto/history.responses';

/** How a node decides: its mode as the definition states it. */
export type ApprovalRule = Pick<ApprovalNode, 'mode' | 'passPercent'>;

/**
 * Who decided each approval node visit (the summary's `nodes`), from the visit's tasks: the votes in
 * the order they were cast, then the same `decideApproval` the runtime counted them with, which
 * names the deciding vote. The seats are the waiting visit's seat list, or, for a visit that is
 * over, the seats that held a task (every seat of a decided visit had one). A visit ended by an
 * operation (reset, withdraw, …) without a decision has no outcome.
 */
export function nodeDecisions(
  tasks: readonly TaskRow[],
  ruleOf: (nodeKey: string) => ApprovalRule | undefined,
  waiting: Readonly<Record<string, { visit: number; assignees: readonly string[] }>>,
): NodeDecisionResponse[] {
  const visits = new Map<string, TaskRow[]>();
  for (const task of tasks) {
    const key = `${task.node_key}\u0000${task.visit}`;
    visits.set(key, [...(visits.get(key) ?? []), task]);
  }
  return [...visits.values()].map((visitTasks) => {
    const { node_key: nodeKey, visit } = visitTasks[0] as TaskRow;
    const cast = visitTasks
      .filter((t) => t.owner === null && (t.status === 'Approved' || t.status === 'Rejected') && t.decided_at !== null)
      .sort((a, b) => (a.decided_at as Date).getTime() - (b.decided_at as Date).getTime() || a.seq - b.seq);
    const votes: VoteResponse[] = cast.map((t) => ({
      taskId: t.id,
      by: t.decided_by ?? t.assignee,
      decision: t.status as 'Approved' | 'Rejected',
      at: (t.decided_at as Date).toISOString(),
      comment: t.comment,
    }));
    const open = waiting[nodeKey]?.visit === visit ? waiting[nodeKey] : undefined;
    const seats = open ? open.assignees.length : new Set(visitTasks.map((t) => t.seq)).size;
    const rule = ruleOf(nodeKey);
    const decided = rule
      ? decideApproval(
          rule,
          seats,
          cast.map((t) => (t.status === 'Approved' ? 'approve' : 'reject')),
        )
      : { decision: 'pending' as const };
    const deciding = decided.decision !== 'pending' && decided.decidingVote !== undefined ? votes[decided.decidingVote] : undefined;
    return {
      nodeKey,
      visit,
      outcome: deciding ? (decided.decision === 'approved' ? 'Approved' : 'Rejected') : null,
      decidedBy: deciding?.by ?? null,
      decidedAt: deciding?.at ?? null,
      votes,
    };
  });
}

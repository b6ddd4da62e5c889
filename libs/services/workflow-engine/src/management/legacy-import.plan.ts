/**
 * How a legacy instance becomes rows (docs/management.md, Legacy import): pure, no I/O. It checks the
 * import against the definition version's graph and answers the instance's walk position and its
 * task rows, or the problems by field (422 `Workflow.Import.Invalid`).
 */
import { FieldProblems } from '@lp/contracts';
import { ApprovalNode, decideApproval, DefinitionGraph, listNodes, START_KEY, VoteValue } from '../engine';
import type { ParkedApproval, WalkPosition } from '../runtime/runtime-walk';
import type { ImportedTaskRow } from './management.repository';
import type { LegacyImport, LegacyTask } from './dto/legacy-import.dto';

export interface ImportPlan {
  position: WalkPosition;
  tasks: ImportedTaskRow[];
}

export type ImportProblems = Record<string, string[]>;

type Indexed = LegacyTask & { index: number };

export function planImport(graph: DefinitionGraph, body: LegacyImport, now: Date): { plan: ImportPlan } | { problems: ImportProblems } {
  const problems = new FieldProblems();
  const problem = (field: string, message: string) => problems.add(field, message);
  const tasks: Indexed[] = body.tasks.map((t, index) => ({ ...t, index }));

  for (const task of tasks) {
    if (!graph.has(task.nodeKey)) problem(`tasks[${task.index}].nodeKey`, `the definition version has no node "${task.nodeKey}"`);
    else if (graph.node(task.nodeKey).kind !== 'approval')
      problem(`tasks[${task.index}].nodeKey`, `"${task.nodeKey}" is a ${graph.node(task.nodeKey).kind} node: tasks belong to approval nodes`);
  }
  if (problems.size > 0) return { problems: problems.toRecord() };

  const visits: Record<string, number> = {};
  for (const task of tasks) visits[task.nodeKey] = Math.max(visits[task.nodeKey] ?? 0, task.visit);
  const parked: Record<string, ParkedApproval> = {};
  const rows: ImportedTaskRow[] = [];
  const row = (task: Indexed, seq: number): ImportedTaskRow => ({
    nodeKey: task.nodeKey,
    visit: task.visit,
    seq,
    assignee: task.assignee,
    status: task.status,
    comment: task.comment ?? null,
    createdAt: task.createdAt ?? body.createdAt,
    // A cancelled task ended when its instance did (or now, for one cancelled while the instance runs on).
    decidedAt: task.decidedAt ?? (task.status === 'Cancelled' ? (body.endedAt ?? now.toISOString()) : null),
    decidedBy: task.decidedBy ?? null,
  });

  for (const { nodeKey, visit, members } of visitsOf(tasks)) {
    const open = members.filter((t) => t.status === 'Pending');
    if (open.length === 0) {
      members.forEach((t, i) => rows.push(row(t, i)));
      continue;
    }
    if (visit !== visits[nodeKey]) {
      open.forEach((t) => problem(`tasks[${t.index}].visit`, `an open task belongs to the latest visit of "${nodeKey}" (${visits[nodeKey]})`));
      continue;
    }
    const node = graph.node(nodeKey) as ApprovalNode;
    // The seats of the waiting visit: the votes in the order they were cast, then the open tasks.
    // (The schema requires decidedAt on a vote.)
    const votes = members
      .filter((t) => t.status === 'Approved' || t.status === 'Rejected')
      .sort((a, b) => Date.parse(a.decidedAt ?? '') - Date.parse(b.decidedAt ?? ''));
    const seated = [...votes, ...open];
    const seats = seated.map((t) => t.assignee);
    const twice = seats.find((s, i) => seats.indexOf(s) !== i);
    if (twice !== undefined) problem('tasks', `"${twice}" holds two seats at "${nodeKey}" (visit ${visit}): one person votes once per approval`);
    if (node.mode === 'sequential' && open.length > 1) problem('tasks', `"${nodeKey}" is sequential: one of its tasks is open at a time, not ${open.length}`);
    const cast: VoteValue[] = votes.map((t) => (t.status === 'Approved' ? 'approve' : 'reject'));
    if (decideApproval(node, seats.length, cast).decision !== 'pending')
      problem('tasks', `the votes at "${nodeKey}" (visit ${visit}) decided it already (${node.mode}): none of its tasks can still be open`);
    parked[nodeKey] = { visit, assignees: seats, mode: { mode: node.mode, ...(node.passPercent !== undefined ? { passPercent: node.passPercent } : {}) } };
    seated.forEach((t, seq) => rows.push(row(t, seq)));
    members.filter((t) => !seated.includes(t)).forEach((t, i) => rows.push(row(t, seated.length + i)));
  }

  const arrived = parallelArrivals(graph, Object.keys(parked), problem);
  if (problems.size > 0) return { problems: problems.toRecord() };
  // The path: the start, then every node with tasks in the definition's order (the legacy system's own path is not known).
  const withTasks = new Set(tasks.map((t) => t.nodeKey));
  const path = [
    START_KEY,
    ...listNodes(graph.definition)
      .map((e) => e.node.key)
      .filter((k) => withTasks.has(k)),
  ];
  return { plan: { position: { parked, arrived, visits, path }, tasks: rows } };
}

/**
 * Open approvals can only be open together when they sit in different branches of a parallel
 * gateway. The branches of such a gateway that hold no open approval count as arrived at its join
 * (they ended in the legacy system), so the join waits only for the open ones.
 */
function parallelArrivals(graph: DefinitionGraph, open: string[], problem: (field: string, message: string) => void): Record<string, number[]> {
  open.forEach((first, i) => {
    for (const second of open.slice(i + 1)) {
      const a = graph.entry(first).scope;
      const b = graph.entry(second).scope;
      // The first enclosing gateway where the two part ways must be a parallel one.
      const k = a.findIndex((entry, at) => b[at]?.gateway !== entry.gateway || b[at]?.branch !== entry.branch);
      const split = k < 0 ? undefined : a[k];
      const concurrent = split !== undefined && b[k]?.gateway === split.gateway && graph.gateway(split.gateway).kind === 'parallel';
      if (!concurrent) problem('tasks', `"${first}" and "${second}" cannot wait at the same time: only branches of a parallel gateway run together`);
    }
  });
  const arrived: Record<string, number[]> = {};
  const waiting = new Map<string, Set<number>>();
  for (const key of open) {
    for (const { gateway, branch } of graph.entry(key).scope) {
      if (graph.gateway(gateway).kind !== 'parallel') continue;
      const branches = waiting.get(gateway) ?? new Set<number>();
      branches.add(branch);
      waiting.set(gateway, branches);
    }
  }
  for (const [gateway, branches] of waiting) {
    arrived[gateway] = graph
      .gateway(gateway)
      .branches.map((_, b) => b)
      .filter((b) => !branches.has(b));
  }
  return arrived;
}

/** The tasks by node visit, in the order each visit first appears. */
function visitsOf(tasks: readonly Indexed[]): Array<{ nodeKey: string; visit: number; members: Indexed[] }> {
  const groups = new Map<string, { nodeKey: string; visit: number; members: Indexed[] }>();
  for (const task of tasks) {
    const key = `${task.nodeKey}\u0000${task.visit}`;
    const group = groups.get(key);
    if (group) group.members.push(task);
    else groups.set(key, { nodeKey: task.nodeKey, visit: task.visit, members: [task] });
  }
  return [...groups.values()];
}

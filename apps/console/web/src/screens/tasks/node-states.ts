import { FlowDefinition, FlowNode, GATEWAY_KINDS } from './definition-model';
import { FINAL_STATUSES, InstanceProgress, NodeDecision, ProgressNode, WorkflowInstance } from './workflow-api';

/**
 * What the progress graph shows of a node. The engine's progress route says `not-reached`, `passed`
 * or `waiting`; the screen refines it: a passed approval whose last visit was decided by a rejection
 * is `rejected` (the history summary's outcome), a node on an exclusive branch that was not taken or
 * left behind by an ended instance is `skipped`, a node still waiting when the instance was stopped
 * (withdrawn, terminated, cancelled) is `cancelled`.
 */
export type NodeDisplayState = 'done' | 'active' | 'pending' | 'rejected' | 'skipped' | 'cancelled';

export const DISPLAY_STATES: readonly NodeDisplayState[] = ['done', 'active', 'pending', 'rejected', 'skipped', 'cancelled'];

export const STATE_LABELS: Record<NodeDisplayState, string> = {
  done: 'Done',
  active: 'Active',
  pending: 'Pending',
  rejected: 'Rejected',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
};

/** A symbol beside each state's word, so the state never rests on colour alone. */
export const STATE_SYMBOLS: Record<NodeDisplayState, string> = {
  done: '✓',
  active: '▶',
  pending: '○',
  rejected: '✗',
  skipped: '–',
  cancelled: '⊘',
};

export interface NodeStatus {
  state: NodeDisplayState;
  /** A few words on why: who decided, who it waits for. */
  detail: string;
}

const isFinal = (instance: WorkflowInstance) => FINAL_STATUSES.includes(instance.status);
const list = (subjects: Iterable<string>) => [...new Set(subjects)].join(', ');

function latestDecision(decisions: NodeDecision[] | undefined, key: string): NodeDecision | undefined {
  return decisions?.filter((d) => d.nodeKey === key).sort((a, b) => b.visit - a.visit)[0];
}

function baseStatus(node: ProgressNode, instance: WorkflowInstance, decisions: NodeDecision[] | undefined): NodeStatus {
  const final = isFinal(instance);
  if (node.state === 'waiting') {
    const waitingFor = list(node.tasks.filter((t) => t.status === 'Pending').map((t) => t.assignee));
    if (final) return { state: 'cancelled', detail: `stopped: the instance is ${instance.status.toLowerCase()}` };
    if (instance.status === 'Suspended') return { state: 'active', detail: `suspended${waitingFor ? `, waiting for ${waitingFor}` : ''}` };
    return { state: 'active', detail: waitingFor ? `waiting for ${waitingFor}` : 'waiting' };
  }
  if (node.state === 'not-reached') return final ? { state: 'skipped', detail: 'not reached' } : { state: 'pending', detail: 'not reached yet' };
  if (node.kind === 'approval') {
    const decision = latestDecision(decisions, node.key);
    const lastVisit = Math.max(0, ...node.tasks.map((t) => t.visit));
    const votes = node.tasks.filter((t) => t.visit === lastVisit && t.owner === null && (t.status === 'Approved' || t.status === 'Rejected'));
    const rejected = decision ? decision.outcome === 'Rejected' : votes.some((t) => t.status === 'Rejected');
    const deciders = decision?.decidedBy ?? list(votes.filter((t) => t.status === (rejected ? 'Rejected' : 'Approved')).map((t) => t.decidedBy ?? t.assignee));
    if (rejected) return { state: 'rejected', detail: deciders ? `rejected by ${deciders}` : 'rejected' };
    return { state: 'done', detail: deciders ? `approved by ${deciders}` : votes.length === 0 ? 'passed without a vote' : 'approved' };
  }
  if (node.kind === 'cc') return { state: 'done', detail: 'notified' };
  return { state: 'done', detail: 'passed' };
}

function reachedIn(nodes: FlowNode[], statuses: Map<string, NodeStatus>): boolean {
  return nodes.some((node) => {
    const state = statuses.get(node.key)?.state;
    return (
      state === 'done' ||
      state === 'active' ||
      state === 'rejected' ||
      reachedIn(
        (node.branches ?? []).flatMap((b) => b.nodes),
        statuses,
      )
    );
  });
}

function skipAll(nodes: FlowNode[], statuses: Map<string, NodeStatus>, detail: string): void {
  for (const node of nodes) {
    const status = statuses.get(node.key);
    if (status && (status.state === 'pending' || status.state === 'skipped')) statuses.set(node.key, { state: 'skipped', detail });
    for (const branch of node.branches ?? []) skipAll(branch.nodes, statuses, detail);
  }
}

/** Exclusive gateways that were passed: the branches not taken are skipped, also while the instance runs. */
function markUntakenBranches(nodes: FlowNode[], statuses: Map<string, NodeStatus>): void {
  for (const node of nodes) {
    const branches = node.branches ?? [];
    if (node.kind === 'exclusive' && statuses.get(node.key)?.state === 'done') {
      const taken = branches.filter((branch) => reachedIn(branch.nodes, statuses));
      if (taken.length > 0) {
        for (const branch of branches) if (!taken.includes(branch)) skipAll(branch.nodes, statuses, 'branch not taken');
        const names = taken.map((branch) => branch.name ?? branch.key ?? `branch ${branches.indexOf(branch) + 1}`);
        statuses.set(node.key, { state: 'done', detail: `took ${names.join(', ')}` });
      }
    }
    for (const branch of branches) markUntakenBranches(branch.nodes, statuses);
  }
}

/** Every node's status, by key. */
export function nodeStatuses(definition: FlowDefinition, progress: InstanceProgress, decisions: NodeDecision[] | undefined): Map<string, NodeStatus> {
  const statuses = new Map<string, NodeStatus>();
  for (const node of progress.nodes) statuses.set(node.key, baseStatus(node, progress.instance, decisions));
  markUntakenBranches(definition.nodes, statuses);
  return statuses;
}

export function startStatus(progress: InstanceProgress): NodeStatus {
  if (progress.returnedToInitiator) return { state: 'active', detail: `returned to ${progress.instance.initiator}, waiting for a resubmit` };
  return { state: 'done', detail: `started by ${progress.instance.initiator}` };
}

export function endStatus(instance: WorkflowInstance): NodeStatus {
  switch (instance.status) {
    case 'Approved':
      return { state: 'done', detail: 'completed: approved' };
    case 'Rejected':
      return { state: 'rejected', detail: 'completed: rejected' };
    case 'Running':
      return { state: 'pending', detail: 'running' };
    case 'Suspended':
      return { state: 'pending', detail: 'suspended' };
    default:
      return { state: 'cancelled', detail: `ended: ${instance.status.toLowerCase()}` };
  }
}

export function isGateway(node: FlowNode): boolean {
  return GATEWAY_KINDS.has(node.kind) && (node.branches?.length ?? 0) > 0;
}

/**
 * The runtime walk: the simulation's token walk (engine/simulation.ts) over a stored position.
 * Pure: it takes the position, the variables and the assignee sources, and answers the new position,
 * the effects to persist (tasks to open, nodes whose open tasks are cancelled, cc notifications) and
 * the outcome. The service runs it under the instance row's lock, so one walk at a time per instance.
 */
import { DomainError } from '@lp/contracts';
import { ApprovalNode, Continuation, DefinitionGraph, resolveAssignees, selectBranch, START_KEY } from '../engine';
import type { AssigneeSources } from '../engine';

/** An approval node waiting for votes: who its tasks are for, and the mode that decides it. */
export interface ParkedApproval {
  visit: number;
  assignees: string[];
  mode: Pick<ApprovalNode, 'mode' | 'passPercent'>;
}

/** The walk's stored state (the instance row's `position`). */
export interface WalkPosition {
  /** Approval nodes with open tasks, by key. */
  parked: Record<string, ParkedApproval>;
  /** Parallel joins: the branches that have arrived, per gateway. */
  arrived: Record<string, number[]>;
  /** Visits per approval node (1 on the first, 2 after a rejection brought the flow back, ...). */
  visits: Record<string, number>;
  /** Node keys in the order they were reached. */
  path: string[];
  /** A rejection sent the instance back to its initiator: nothing is open until they resubmit. */
  returned?: boolean;
}

export const emptyPosition = (): WalkPosition => ({ parked: {}, arrived: {}, visits: {}, path: [START_KEY] });

export type WalkOutcome = 'running' | 'approved' | 'rejected';

export interface OpenedTask {
  nodeKey: string;
  visit: number;
  seq: number;
  assignee: string;
}

export interface WalkEffects {
  opened: OpenedTask[];
  /** Nodes whose pending tasks are cancelled (left by a rejection, or every node when the instance ends). */
  cancelled: string[];
  notifications: Array<{ nodeKey: string; recipients: string[] }>;
  outcome: WalkOutcome;
}

/** Far above any sane definition: a walker bug becomes an error, not a hung request. */
const STEP_LIMIT = 10_000;

export class WalkError extends DomainError {
  constructor(code: string, status: number, message: string) {
    super(code, status, message);
  }
}

export class RuntimeWalk {
  private queue: Continuation[] = [];
  private readonly effects: WalkEffects = { opened: [], cancelled: [], notifications: [], outcome: 'running' };
  private ended = false;

  constructor(
    private readonly graph: DefinitionGraph,
    readonly position: WalkPosition,
    private readonly sources: AssigneeSources,
  ) {}

  /** From the start: the first node onwards, until every token waits or the instance ends. */
  async start(): Promise<WalkEffects> {
    this.queue.push(this.graph.first());
    return this.drain();
  }

  /** The approval node's votes approved it: the flow continues after it. */
  async approved(nodeKey: string): Promise<WalkEffects> {
    this.unpark(nodeKey);
    this.queue.push(this.graph.after(nodeKey));
    return this.drain();
  }

  /** The votes rejected it: back to `target` (an allowed reject target) or, without one, the instance is rejected. */
  async rejected(nodeKey: string, target: string | undefined): Promise<WalkEffects> {
    this.unpark(nodeKey);
    if (target === undefined) {
      this.finish('rejected');
      return this.effects;
    }
    this.rejectTo(nodeKey, target);
    return this.drain();
  }

  /** The initiator resubmits an instance a rejection returned to them: the flow starts again from the first node. */
  async resubmit(): Promise<WalkEffects> {
    delete this.position.returned;
    this.position.path.push(START_KEY);
    this.queue.push(this.graph.first());
    return this.drain();
  }

  /**
   * Start at a node, or reset to it (docs/runtime.md, Administrative operations): every open task is
   * cancelled and the flow is placed at `target` as if it had arrived there: the exclusive gateways
   * around it take its branch (no condition is evaluated), and every parallel gateway around it runs
   * its other branches from their beginning and joins as usual, so nothing concurrent with the
   * target is skipped. The target opens with the next visit; the walk then goes on as usual.
   */
  async enterAt(target: string): Promise<WalkEffects> {
    RuntimeWalk.checkEntryNode(this.graph, target);
    this.effects.cancelled.push(...Object.keys(this.position.parked));
    this.position.parked = {};
    this.position.arrived = {};
    delete this.position.returned;
    this.queue = [{ kind: 'node', key: target }];
    for (const { gateway, branch } of this.graph.entry(target).scope) {
      this.position.path.push(gateway);
      const node = this.graph.gateway(gateway);
      if (node.kind !== 'parallel') continue;
      this.position.arrived[gateway] = [];
      node.branches.forEach((_, b) => {
        if (b !== branch) this.queue.push(this.graph.branchEntry(gateway, b));
      });
    }
    return this.drain();
  }

  /** A node an instance may be placed at (start at a node, reset): an approval node of the version, anywhere in the tree. */
  static checkEntryNode(graph: DefinitionGraph, nodeKey: string): void {
    if (!graph.has(nodeKey)) throw new WalkError('Workflow.Runtime.NodeNotAllowed', 422, `The definition has no node "${nodeKey}".`);
    const node = graph.node(nodeKey);
    if (node.kind !== 'approval') {
      throw new WalkError(
        'Workflow.Runtime.NodeNotAllowed',
        422,
        `Node "${nodeKey}" is a ${node.kind} node: an instance can only be placed at an approval node.`,
      );
    }
  }

  /** Whether a rejection at this approval node may send the instance back to `target` (`start`: to the initiator). */
  static checkRejectTarget(graph: DefinitionGraph, nodeKey: string, target: string): void {
    const node = graph.node(nodeKey);
    if (node.kind !== 'approval' || !graph.rejectTargets(node).includes(target)) {
      throw new WalkError('Workflow.Runtime.RejectTargetNotAllowed', 422, `Approval "${nodeKey}" cannot send the instance back to "${target}".`);
    }
  }

  private unpark(nodeKey: string): void {
    delete this.position.parked[nodeKey];
  }

  private async drain(): Promise<WalkEffects> {
    let steps = 0;
    for (let at = this.queue.shift(); at && !this.ended; at = this.queue.shift()) {
      if (++steps > STEP_LIMIT) throw new Error(`workflow walk: more than ${STEP_LIMIT} steps`);
      await this.step(at);
    }
    return this.effects;
  }

  private async step(at: Continuation): Promise<void> {
    if (at.kind === 'complete') return this.finish('approved');
    if (at.kind === 'join') return this.join(at.gateway, at.branch);
    const node = this.graph.node(at.key);
    this.position.path.push(node.key);
    switch (node.kind) {
      case 'end':
        return this.finish(node.result);
      case 'cc': {
        this.effects.notifications.push({ nodeKey: node.key, recipients: await resolveAssignees(node.recipients, this.sources) });
        this.queue.push(this.graph.after(node.key));
        return;
      }
      case 'exclusive': {
        let branch: number;
        try {
          branch = selectBranch(node, this.sources.variables).branch;
        } catch (error) {
          throw new WalkError('Workflow.Runtime.ConditionFailed', 422, `Exclusive gateway "${node.key}": ${(error as Error).message}`);
        }
        this.queue.push(this.graph.branchEntry(node.key, branch));
        return;
      }
      case 'parallel':
        this.position.arrived[node.key] = [];
        node.branches.forEach((_, b) => this.queue.push(this.graph.branchEntry(node.key, b)));
        return;
      case 'approval':
        return this.enterApproval(node);
    }
  }

  private join(gatewayKey: string, branch: number): void {
    const gateway = this.graph.gateway(gatewayKey);
    if (gateway.kind === 'exclusive') {
      this.queue.push(this.graph.after(gatewayKey));
      return;
    }
    const arrived = new Set(this.position.arrived[gatewayKey] ?? []);
    arrived.add(branch);
    if (arrived.size === gateway.branches.length) {
      delete this.position.arrived[gatewayKey];
      this.queue.push(this.graph.after(gatewayKey));
    } else {
      this.position.arrived[gatewayKey] = [...arrived].sort((a, b) => a - b);
    }
  }

  private async enterApproval(node: ApprovalNode): Promise<void> {
    const visit = (this.position.visits[node.key] ?? 0) + 1;
    this.position.visits[node.key] = visit;
    let assignees = await resolveAssignees(node.assignees, this.sources);
    let mode: ParkedApproval['mode'] = { mode: node.mode, ...(node.passPercent !== undefined ? { passPercent: node.passPercent } : {}) };
    if (assignees.length === 0) {
      if (node.emptyAssignee === 'auto-pass') {
        this.queue.push(this.graph.after(node.key));
        return;
      }
      const admins = [...new Set(this.graph.definition.admins ?? [])];
      if (node.emptyAssignee === 'error' || admins.length === 0) {
        throw new WalkError('Workflow.Runtime.AssigneeEmpty', 422, `Approval "${node.key}" resolved to nobody; nothing was written.`);
      }
      // to-admin: one task per admin; the first admin to act decides.
      assignees = admins;
      mode = { mode: 'any' };
    }
    this.position.parked[node.key] = { visit, assignees, mode };
    // Sequential: one task at a time, in assignee order; the others all at once.
    const opened = mode.mode === 'sequential' ? assignees.slice(0, 1) : assignees;
    opened.forEach((assignee, seq) => this.effects.opened.push({ nodeKey: node.key, visit, seq, assignee }));
  }

  private rejectTo(nodeKey: string, target: string): void {
    if (target === START_KEY) {
      // Back to the initiator: every open task is cancelled, nothing runs until the resubmit.
      this.effects.cancelled.push(...Object.keys(this.position.parked));
      this.position.parked = {};
      this.position.arrived = {};
      this.position.returned = true;
      this.queue = [];
      return;
    }
    // The gateways left by jumping back: their other branches' open work and joins are dropped.
    const targetDepth = this.graph.entry(target).scope.length;
    const left = this.graph
      .entry(nodeKey)
      .scope.slice(targetDepth)
      .map((s) => s.gateway);
    const isLeft = (key: string): boolean => left.some((g) => key === g || this.graph.isInside(key, g));
    for (const key of Object.keys(this.position.parked)) {
      if (isLeft(key)) {
        delete this.position.parked[key];
        this.effects.cancelled.push(key);
      }
    }
    for (const g of left) delete this.position.arrived[g];
    this.queue = this.queue.filter((at) => !(at.kind === 'node' ? isLeft(at.key) : at.kind === 'join' && isLeft(at.gateway)));
    this.queue.push({ kind: 'node', key: target });
  }

  /** An end node, a rejection or running off the main sequence: the instance is over, open work is cancelled. */
  private finish(outcome: 'approved' | 'rejected'): void {
    this.effects.outcome = outcome;
    this.effects.cancelled.push(...Object.keys(this.position.parked));
    this.position.parked = {};
    this.position.arrived = {};
    this.queue = [];
    this.ended = true;
  }
}

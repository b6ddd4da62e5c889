/**
 * Simulation: the walker run in memory over tokens, as the runtime will run it over stored ones.
 * Votes stand in for the people: each approval node uses its votes on its first visit only, so a
 * rejection back to a target cannot loop (the second visit waits).
 */
import { z } from 'zod';
import { ConditionEvaluationError, ConditionRejectedError } from './condition';
import { Continuation, DefinitionGraph } from './definition-graph';
import { ApprovalNode, START_KEY, WorkflowDefinition } from './definition.model';
import { definitionSchema } from './definition.model';
import { decideApproval, resolveAssignees, selectBranch, VoteValue } from './walker';

const voteSchema = z.union([
  z.enum(['approve', 'reject']),
  z.strictObject({
    decision: z.enum(['approve', 'reject']),
    /** For a rejection: the node (or `start`) to send the instance back to; absent rejects the instance. */
    target: z.string().optional(),
  }),
]);
export type SimulatedVote = z.output<typeof voteSchema>;

/** What a simulation takes besides the definition (the request body of the simulate routes). */
export const simulationRequestSchema = z.strictObject({
  variables: z.record(z.string(), z.unknown()).optional(),
  /**
   * Per approval node: one vote cast by every task, or one entry per task in assignee order
   * (`null`: that task has not voted). Nodes without votes wait.
   */
  votes: z.record(z.string(), z.union([voteSchema, z.array(voteSchema.nullable())])).optional(),
});
export type SimulationRequest = z.output<typeof simulationRequestSchema>;

/** Where role members come from (policy-management over RPC in the service; a map in tests). */
export interface AssigneeDirectory {
  membersOfRole(tenantId: string, roleName: string): Promise<string[]>;
}

export interface SimulationContext {
  tenantId: string;
  initiator: string;
  directory: AssigneeDirectory;
}

export type SimulatedTaskStatus = 'approved' | 'rejected' | 'pending' | 'cancelled';

export interface SimulatedTask {
  nodeKey: string;
  assignees: string[];
  status: SimulatedTaskStatus;
  /** 1 on the first visit of the node, 2 after a rejection brought the flow back, ... */
  visit: number;
}

export type SimulationOutcome = 'approved' | 'rejected' | 'waiting' | 'failed';

export interface SimulationResult {
  /** Node keys in the order they are reached, starting with `start`. */
  path: string[];
  /** The tasks that would be created, in order. */
  tasks: SimulatedTask[];
  outcome: SimulationOutcome;
  /** Nodes the instance waits at (`start`: returned to the initiator for resubmission). */
  waitingAt: string[];
  /** The branch each exclusive gateway took. */
  decisions: Array<{ gateway: string; branch: number; branchKey?: string; by: 'condition' | 'default' }>;
  /** Nodes passed without a task (empty assignees under `auto-pass`). */
  autoPassed: string[];
  /** Rejections that sent the instance back. */
  returns: Array<{ from: string; to: string }>;
  /** cc notifications, never blocking. */
  notifications: Array<{ nodeKey: string; recipients: string[] }>;
  /** Why the simulation stopped, when the outcome is `failed`. */
  error?: { code: string; message: string; nodeKey?: string };
}

/** Far above any sane definition; guards against a walker bug turning into a hung request. */
const STEP_LIMIT = 10_000;

class SimulationStop extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly nodeKey?: string,
  ) {
    super(message);
  }
}

/** The path a definition takes for the given variables and votes, and the tasks it would create; nothing is written. */
export async function simulateDefinition(definition: WorkflowDefinition, request: SimulationRequest, context: SimulationContext): Promise<SimulationResult> {
  // Re-parsed so a stored definition handed over without compiling gets its defaults, or a clear refusal.
  const parsed = definitionSchema.safeParse(definition);
  if (!parsed.success) {
    return {
      ...emptyResult(),
      outcome: 'failed',
      error: { code: 'Workflow.Definition.Invalid', message: parsed.error.issues[0]?.message ?? 'invalid definition' },
    };
  }
  return new Simulation(DefinitionGraph.of(parsed.data), request, context).run();
}

function emptyResult(): SimulationResult {
  return { path: [START_KEY], tasks: [], outcome: 'waiting', waitingAt: [], decisions: [], autoPassed: [], returns: [], notifications: [] };
}

interface Token {
  at: Continuation;
}

class Simulation {
  private readonly result = emptyResult();
  private readonly variables: Record<string, unknown>;
  private queue: Token[] = [];
  /** Tokens stopped at an approval whose tasks are still open. */
  private parked: string[] = [];
  /** Parallel joins: the branches that have arrived, per gateway. */
  private readonly arrived = new Map<string, Set<number>>();
  private readonly visits = new Map<string, number>();
  private ended = false;

  constructor(
    private readonly graph: DefinitionGraph,
    private readonly request: SimulationRequest,
    private readonly context: SimulationContext,
  ) {
    this.variables = request.variables ?? {};
  }

  async run(): Promise<SimulationResult> {
    this.queue.push({ at: this.graph.first() });
    try {
      let steps = 0;
      for (let token = this.queue.shift(); token && !this.ended; token = this.queue.shift()) {
        if (++steps > STEP_LIMIT) throw new SimulationStop('Workflow.Simulation.StepLimit', `more than ${STEP_LIMIT} steps`);
        await this.step(token.at);
      }
    } catch (error) {
      if (error instanceof SimulationStop) this.fail(error.code, error.message, error.nodeKey);
      else throw error;
    }
    if (!this.ended) this.result.waitingAt = [...this.parked];
    return this.result;
  }

  private async step(at: Continuation): Promise<void> {
    if (at.kind === 'complete') return this.finish('approved');
    if (at.kind === 'join') return this.join(at.gateway, at.branch);
    const node = this.graph.node(at.key);
    this.result.path.push(node.key);
    switch (node.kind) {
      case 'end':
        return this.finish(node.result);
      case 'cc': {
        const recipients = await resolveAssignees(node.recipients, this.sources());
        this.result.notifications.push({ nodeKey: node.key, recipients });
        return this.continueAfter(node.key);
      }
      case 'exclusive': {
        let choice;
        try {
          choice = selectBranch(node, this.variables);
        } catch (error) {
          const code =
            error instanceof ConditionRejectedError
              ? 'Workflow.Definition.ConditionInvalid'
              : error instanceof ConditionEvaluationError
                ? 'Workflow.Runtime.ConditionFailed'
                : 'Workflow.Definition.DefaultBranchCount';
          throw new SimulationStop(code, (error as Error).message, node.key);
        }
        this.result.decisions.push({ gateway: node.key, branch: choice.branch, branchKey: node.branches[choice.branch]?.key, by: choice.by });
        this.queue.push({ at: this.graph.branchEntry(node.key, choice.branch) });
        return;
      }
      case 'parallel':
        this.arrived.set(node.key, new Set());
        node.branches.forEach((_, b) => this.queue.push({ at: this.graph.branchEntry(node.key, b) }));
        return;
      case 'approval':
        return this.approve(node);
    }
  }

  private join(gatewayKey: string, branch: number): void {
    const gateway = this.graph.gateway(gatewayKey);
    if (gateway.kind === 'exclusive') return this.continueAfter(gatewayKey);
    const arrived = this.arrived.get(gatewayKey) ?? new Set<number>();
    arrived.add(branch);
    this.arrived.set(gatewayKey, arrived);
    if (arrived.size === gateway.branches.length) {
      this.arrived.delete(gatewayKey);
      this.continueAfter(gatewayKey);
    }
  }

  private async approve(node: ApprovalNode): Promise<void> {
    const visit = (this.visits.get(node.key) ?? 0) + 1;
    this.visits.set(node.key, visit);
    let assignees = await resolveAssignees(node.assignees, this.sources());
    let mode: Pick<ApprovalNode, 'mode' | 'passPercent'> = node;
    if (assignees.length === 0) {
      if (node.emptyAssignee === 'auto-pass') {
        this.result.autoPassed.push(node.key);
        return this.continueAfter(node.key);
      }
      if (node.emptyAssignee === 'error' || (this.graph.definition.admins ?? []).length === 0) {
        throw new SimulationStop('Workflow.Runtime.AssigneeEmpty', `approval "${node.key}" resolved to nobody`, node.key);
      }
      // to-admin: one task per admin; the first admin to act decides.
      assignees = [...new Set(this.graph.definition.admins)];
      mode = { mode: 'any' };
    }
    // Sequential tasks are opened one at a time, the others all at once.
    const votes = visit === 1 ? this.votesFor(node.key, assignees.length) : [];
    const cast: VoteValue[] = [];
    const firstTask = this.result.tasks.length;
    let decided: ReturnType<typeof decideApproval> = { decision: 'pending' };
    let decidingTask = -1;
    for (const [i, assignee] of assignees.entries()) {
      // Sequential: the next task opens only once the previous one approved.
      if (mode.mode === 'sequential' && (i > cast.length || decided.decision !== 'pending')) break;
      const vote = decided.decision === 'pending' ? votes[i] : undefined;
      const status: SimulatedTaskStatus =
        decided.decision !== 'pending' ? 'cancelled' : vote ? (vote.decision === 'approve' ? 'approved' : 'rejected') : 'pending';
      this.result.tasks.push({ nodeKey: node.key, assignees: [assignee], status, visit });
      if (vote && decided.decision === 'pending') {
        cast.push(vote.decision);
        decided = decideApproval(mode, assignees.length, cast);
        if (decided.decision !== 'pending') decidingTask = i;
      }
    }
    // Tasks of an "all at once" mode that were opened before the decision and not voted are cancelled.
    if (decided.decision !== 'pending') {
      for (const task of this.result.tasks.slice(firstTask)) if (task.status === 'pending') task.status = 'cancelled';
    }
    if (decided.decision === 'approved') return this.continueAfter(node.key);
    if (decided.decision === 'pending') {
      this.parked.push(node.key);
      return;
    }
    const target = votes[decidingTask]?.target;
    if (target === undefined) return this.finish('rejected');
    this.rejectTo(node, target);
  }

  private rejectTo(node: ApprovalNode, target: string): void {
    const allowed = this.graph.rejectTargets(node);
    if (!allowed.includes(target)) {
      throw new SimulationStop('Workflow.Runtime.RejectTargetNotAllowed', `approval "${node.key}" cannot send the instance back to "${target}"`, node.key);
    }
    this.result.returns.push({ from: node.key, to: target });
    if (target === START_KEY) {
      this.result.path.push(START_KEY);
      this.cancelOpenWork(() => true);
      this.parked = [START_KEY];
      this.queue = [];
      return;
    }
    // The gateways left by jumping back: their other branches' tokens and open tasks are cancelled.
    const targetDepth = this.graph.entry(target).scope.length;
    const left = new Set(
      this.graph
        .entry(node.key)
        .scope.slice(targetDepth)
        .map((s) => s.gateway),
    );
    const isLeft = (key: string): boolean => [...left].some((g) => key === g || this.graph.isInside(key, g));
    this.cancelOpenWork(isLeft);
    this.queue = this.queue.filter((token) => !(token.at.kind === 'node' ? isLeft(token.at.key) : token.at.kind === 'join' && isLeft(token.at.gateway)));
    for (const g of left) this.arrived.delete(g);
    this.queue.push({ at: { kind: 'node', key: target } });
  }

  /** Cancels the pending tasks and parked tokens of the nodes selected. */
  private cancelOpenWork(selected: (key: string) => boolean): void {
    for (const task of this.result.tasks) if (task.status === 'pending' && selected(task.nodeKey)) task.status = 'cancelled';
    this.parked = this.parked.filter((key) => !selected(key));
  }

  /** The node's votes, one per task in assignee order; `undefined`: not voted. */
  private votesFor(nodeKey: string, taskCount: number): Array<{ decision: VoteValue; target?: string } | undefined> {
    const given = this.request.votes?.[nodeKey];
    if (given === undefined) return [];
    const normalise = (v: SimulatedVote | null | undefined) => (v === null || v === undefined ? undefined : typeof v === 'string' ? { decision: v } : v);
    return Array.isArray(given) ? given.map(normalise) : Array.from({ length: taskCount }, () => normalise(given));
  }

  private continueAfter(key: string): void {
    this.queue.push({ at: this.graph.after(key) });
  }

  /** An end node, a rejection or running off the main sequence: the instance is over, open work is cancelled. */
  private finish(outcome: 'approved' | 'rejected'): void {
    this.result.outcome = outcome;
    this.cancelOpenWork(() => true);
    this.ended = true;
  }

  private fail(code: string, message: string, nodeKey?: string): void {
    this.result.outcome = 'failed';
    this.result.error = { code, message, ...(nodeKey ? { nodeKey } : {}) };
    this.ended = true;
  }

  private sources() {
    return {
      initiator: this.context.initiator,
      variables: this.variables,
      membersOfRole: (role: string) => this.context.directory.membersOfRole(this.context.tenantId, role),
    };
  }
}

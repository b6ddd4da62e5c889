/**
 * The decisions the flow takes at each node, as pure functions the simulation runs in memory and
 * the runtime will run against stored state: which branch an exclusive gateway takes, whether an
 * approval's votes decide it, who the assignees are.
 */
import { evaluateCondition } from './condition';
import { ApprovalNode, AssigneeSpec, ExclusiveGateway } from './definition.model';

export type VoteValue = 'approve' | 'reject';
export type ApprovalDecision = 'approved' | 'rejected' | 'pending';

export interface BranchChoice {
  branch: number;
  /** `condition`: the first branch in order whose condition held; `default`: none held. */
  by: 'condition' | 'default';
}

/** Branches are tried in order; the first whose condition holds wins, else the default one. */
export function selectBranch(gateway: ExclusiveGateway, variables: Record<string, unknown>): BranchChoice {
  for (const [i, { condition, default: isDefault }] of gateway.branches.entries()) {
    if (!isDefault && condition && evaluateCondition(condition, variables)) return { branch: i, by: 'condition' };
  }
  const fallback = gateway.branches.findIndex((b) => b.default === true);
  // A validated definition always has one default; an unvalidated one gets no silent choice.
  if (fallback < 0) throw new Error(`exclusive gateway "${gateway.key}": no condition held and there is no default branch`);
  return { branch: fallback, by: 'default' };
}

/**
 * Whether an approval is decided by the votes cast so far, in the order they were cast, for
 * `taskCount` tasks (one per assignee). The first vote that decides wins; later votes do not count
 * (their tasks are cancelled by the caller).
 * - sequential: tasks run one after another; a reject decides, the last approve decides.
 * - all: every task must approve; one reject decides.
 * - any: the first vote decides, whatever it is.
 * - ratio: approved as soon as approvals reach `passPercent` of the tasks; rejected as soon as that
 *   can no longer happen.
 */
export function decideApproval(
  node: Pick<ApprovalNode, 'mode' | 'passPercent'>,
  taskCount: number,
  votes: readonly VoteValue[],
): { decision: ApprovalDecision; decidingVote?: number } {
  let approvals = 0;
  let rejections = 0;
  for (let i = 0; i < votes.length; i++) {
    if (votes[i] === 'approve') approvals++;
    else rejections++;
    const decision = decideAfter(node, taskCount, approvals, rejections);
    if (decision !== 'pending') return { decision, decidingVote: i };
  }
  return { decision: 'pending' };
}

function decideAfter(node: Pick<ApprovalNode, 'mode' | 'passPercent'>, taskCount: number, approvals: number, rejections: number): ApprovalDecision {
  switch (node.mode) {
    case 'any':
      return approvals > 0 ? 'approved' : 'rejected';
    case 'sequential':
    case 'all':
      if (rejections > 0) return 'rejected';
      return approvals >= taskCount ? 'approved' : 'pending';
    case 'ratio': {
      // Integer arithmetic: approvals / taskCount >= passPercent / 100, without rounding surprises.
      const needed = (node.passPercent ?? 100) * taskCount;
      if (approvals * 100 >= needed) return 'approved';
      return (taskCount - rejections) * 100 < needed ? 'rejected' : 'pending';
    }
  }
}

/** Where assignees come from besides the definition: the variables, the initiator, role membership. */
export interface AssigneeSources {
  initiator: string;
  variables: Record<string, unknown>;
  membersOfRole(roleName: string): Promise<string[]>;
}

/** The subjects named by the specs, in order, duplicates dropped; a variable may hold one subject or a list. */
export async function resolveAssignees(specs: readonly AssigneeSpec[], sources: AssigneeSources): Promise<string[]> {
  const subjects: string[] = [];
  for (const spec of specs) subjects.push(...(await resolveOne(spec, sources)));
  return [...new Set(subjects.filter((s) => s.length > 0))];
}

async function resolveOne(spec: AssigneeSpec, sources: AssigneeSources): Promise<string[]> {
  switch (spec.kind) {
    case 'user':
      return spec.subjects;
    case 'role':
      return sources.membersOfRole(spec.role);
    case 'initiator':
      return [sources.initiator];
    case 'initiator-manager':
    case 'variable':
      return subjectsIn(readVariable(sources.variables, spec.variable));
  }
}

function subjectsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** Reads a dotted variable path; own properties only, so a path cannot reach a prototype. */
export function readVariable(variables: Record<string, unknown>, path: string): unknown {
  let value: unknown = variables;
  for (const segment of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

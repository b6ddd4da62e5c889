/**
 * Compilation (the structural check, what the legacy deploy route requires) and static validation
 * (every rule, what validate and publish require). Each problem names its node and a stable code;
 * the codes are listed in docs/definitions-format.md.
 */
import { z } from 'zod';
import { checkCondition } from './condition';
import { DefinitionGraph, listNodes, NodeEntry } from './definition-graph';
import { ApprovalNode, AssigneeSpec, definitionSchema, START_KEY, TimeoutAction, WorkflowDefinition } from './definition.model';

/** One problem of a definition, tied to the node it concerns. Codes are stable (`Workflow.Definition.*`). */
export interface DefinitionProblem {
  code: string;
  message: string;
  /** The key of the node concerned, when there is one. */
  nodeKey?: string;
  /** JSON path of the offending value inside the definition, when known. */
  path?: string;
}

export type DefinitionCompilation = { ok: true; definition: WorkflowDefinition } | { ok: false; problems: DefinitionProblem[] };

export interface DefinitionValidation {
  valid: boolean;
  problems: DefinitionProblem[];
}

export const DefinitionProblemCode = {
  Invalid: 'Workflow.Definition.Invalid',
  UnknownNodeKind: 'Workflow.Definition.UnknownNodeKind',
  UnknownResolver: 'Workflow.Definition.UnknownResolver',
  UnknownHandler: 'Workflow.Definition.UnknownHandler',
  RatioOutOfRange: 'Workflow.Definition.RatioOutOfRange',
  DuplicateNodeKey: 'Workflow.Definition.DuplicateNodeKey',
  ReservedNodeKey: 'Workflow.Definition.ReservedNodeKey',
  DefaultBranchCount: 'Workflow.Definition.DefaultBranchCount',
  ConditionMissing: 'Workflow.Definition.ConditionMissing',
  DefaultBranchConditional: 'Workflow.Definition.DefaultBranchConditional',
  ParallelBranchConditional: 'Workflow.Definition.ParallelBranchConditional',
  EmptyBranch: 'Workflow.Definition.EmptyBranch',
  ConditionInvalid: 'Workflow.Definition.ConditionInvalid',
  VariableUndeclared: 'Workflow.Definition.VariableUndeclared',
  RejectTargetUnknown: 'Workflow.Definition.RejectTargetUnknown',
  RejectTargetNotBehind: 'Workflow.Definition.RejectTargetNotBehind',
  AdminMissing: 'Workflow.Definition.AdminMissing',
  UnreachableNode: 'Workflow.Definition.UnreachableNode',
  TimeoutTargetMissing: 'Workflow.Definition.TimeoutTargetMissing',
  TimeoutFieldNotAllowed: 'Workflow.Definition.TimeoutFieldNotAllowed',
  TimeoutDurationInvalid: 'Workflow.Definition.TimeoutDurationInvalid',
} as const;
const C = DefinitionProblemCode;

/** Structural check only (shape, types, node kinds): what the legacy deploy route requires. */
export function compileDefinition(json: unknown): DefinitionCompilation {
  const parsed = definitionSchema.safeParse(json);
  if (parsed.success) return { ok: true, definition: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((issue) => structuralProblem(issue, json)) };
}

/** Compilation plus every static rule (unique keys, one default per exclusive gateway, ...). */
export function validateDefinition(json: unknown): DefinitionValidation {
  const compiled = compileDefinition(json);
  if (!compiled.ok) return { valid: false, problems: compiled.problems };
  const problems = staticProblems(compiled.definition);
  return { valid: problems.length === 0, problems };
}

/** Structural issues get a specific code where the designer can act on it, and the nearest node's key. */
function structuralProblem(issue: z.core.$ZodIssue, json: unknown): DefinitionProblem {
  const segments = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  const last = segments.at(-1);
  const parent = segments.at(-2);
  const list = segments.at(-3);
  let code: string = C.Invalid;
  if (last === 'kind' && (list === 'assignees' || list === 'recipients' || parent === 'escalateTo')) code = C.UnknownResolver;
  else if (last === 'kind') code = C.UnknownNodeKind;
  else if (last === 'action' && parent === 'timeout') code = C.UnknownHandler;
  else if (last === 'emptyAssignee') code = C.UnknownHandler;
  else if (last === 'passPercent') code = C.RatioOutOfRange;
  const nodeKey = nearestNodeKey(json, segments);
  return { code, message: issue.message, path: formatPath(segments), ...(nodeKey ? { nodeKey } : {}) };
}

function nearestNodeKey(json: unknown, segments: ReadonlyArray<string | number>): string | undefined {
  let value: unknown = json;
  let key: string | undefined;
  for (const [i, segment] of segments.entries()) {
    if (typeof value !== 'object' || value === null) break;
    value = (value as Record<string | number, unknown>)[segment];
    // A node is an element of a `nodes` array.
    if (segments[i - 1] === 'nodes' && typeof value === 'object' && value !== null) {
      const k = (value as Record<string, unknown>)['key'];
      if (typeof k === 'string') key = k;
    }
  }
  return key;
}

function formatPath(segments: ReadonlyArray<string | number>): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function staticProblems(definition: WorkflowDefinition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const add = (code: string, entry: NodeEntry, message: string, path = entry.path): void => {
    problems.push({ code, message, nodeKey: entry.node.key, path });
  };
  const entries = listNodes(definition);
  const graph = DefinitionGraph.of(definition);
  const declared = definition.variables?.map((v) => v.name);
  const isDeclared = (name: string): boolean => declared === undefined || declared.some((d) => name === d || name.startsWith(`${d}.`));
  const checkVariables = (entry: NodeEntry, specs: readonly AssigneeSpec[], field: string): void => {
    specs.forEach((spec, i) => {
      if ((spec.kind === 'variable' || spec.kind === 'initiator-manager') && !isDeclared(spec.variable)) {
        add(C.VariableUndeclared, entry, `variable "${spec.variable}" is not declared`, `${entry.path}.${field}[${i}].variable`);
      }
    });
  };

  const seen = new Set<string>();
  for (const entry of entries) {
    const { node } = entry;
    if (node.key === START_KEY) add(C.ReservedNodeKey, entry, `"${START_KEY}" is the implicit start's key`, `${entry.path}.key`);
    if (seen.has(node.key)) add(C.DuplicateNodeKey, entry, `node key "${node.key}" is used more than once`, `${entry.path}.key`);
    seen.add(node.key);

    // Nodes after an end in the same sequence can never run.
    if (entry.index > 0 && entry.sequence.slice(0, entry.index).some((n) => n.kind === 'end')) {
      add(C.UnreachableNode, entry, `node "${node.key}" follows an end node in its sequence`);
    }

    switch (node.kind) {
      case 'approval':
        checkApproval(node, entry, graph, definition, add);
        checkTimeout(node, entry, add);
        checkVariables(entry, node.assignees, 'assignees');
        if (node.timeout?.escalateTo) checkVariables(entry, [node.timeout.escalateTo], 'timeout.escalateTo');
        break;
      case 'cc':
        checkVariables(entry, node.recipients, 'recipients');
        break;
      case 'exclusive': {
        const defaults = node.branches.filter((b) => b.default === true).length;
        if (defaults !== 1) add(C.DefaultBranchCount, entry, `an exclusive gateway needs exactly one default branch, found ${defaults}`);
        node.branches.forEach((branch, b) => {
          const at = `${entry.path}.branches[${b}]`;
          if (branch.default === true && branch.condition !== undefined)
            add(C.DefaultBranchConditional, entry, 'the default branch has no condition', `${at}.condition`);
          if (branch.default !== true && branch.condition === undefined)
            add(C.ConditionMissing, entry, `branch ${b} needs a condition or \`default: true\``, at);
          if (branch.condition !== undefined) {
            const check = checkCondition(branch.condition);
            for (const error of check.errors) add(C.ConditionInvalid, entry, error, `${at}.condition`);
            for (const name of check.variables)
              if (!isDeclared(name)) add(C.VariableUndeclared, entry, `variable "${name}" is not declared`, `${at}.condition`);
          }
        });
        break;
      }
      case 'parallel':
        node.branches.forEach((branch, b) => {
          if (branch.condition !== undefined || branch.default !== undefined) {
            add(C.ParallelBranchConditional, entry, 'parallel branches all run: no condition or default', `${entry.path}.branches[${b}]`);
          }
        });
        break;
      case 'end':
        break;
    }
    if (node.kind === 'exclusive' || node.kind === 'parallel') {
      node.branches.forEach((branch, b) => {
        if (branch.nodes.length === 0) add(C.EmptyBranch, entry, `branch ${b} has no node`, `${entry.path}.branches[${b}].nodes`);
      });
    }
  }
  return problems;
}

function checkApproval(
  node: ApprovalNode,
  entry: NodeEntry,
  graph: DefinitionGraph,
  definition: WorkflowDefinition,
  add: (code: string, entry: NodeEntry, message: string, path?: string) => void,
): void {
  if (node.mode === 'ratio' && node.passPercent === undefined)
    add(C.RatioOutOfRange, entry, 'ratio mode needs passPercent (1–100)', `${entry.path}.passPercent`);
  if (node.emptyAssignee === 'to-admin' && (definition.admins ?? []).length === 0) {
    add(C.AdminMissing, entry, 'emptyAssignee "to-admin" needs the definition’s admins', `${entry.path}.emptyAssignee`);
  }
  const targets = node.operations?.rejectTargets;
  const at = `${entry.path}.operations.rejectTargets`;
  if (targets === 'previous' && graph.approvalsBehind(node.key).length === 0) {
    add(C.RejectTargetNotBehind, entry, 'no approval node behind this one for "previous"', at);
  } else if (Array.isArray(targets)) {
    const behind = new Set(graph.approvalsBehind(node.key));
    targets.forEach((target, i) => {
      if (target === START_KEY) return;
      if (!graph.has(target)) add(C.RejectTargetUnknown, entry, `reject target "${target}" is not a node`, `${at}[${i}]`);
      else if (!behind.has(target))
        add(C.RejectTargetNotBehind, entry, `reject target "${target}" is not an approval on every path behind this node`, `${at}[${i}]`);
    });
  }
}

/** Which optional timeout field each action needs (required) and which it takes at all. */
const TIMEOUT_FIELDS: Record<TimeoutAction, { needs?: 'transferTo' | 'escalateTo'; takes: ReadonlyArray<'repeatEvery' | 'transferTo' | 'escalateTo'> }> = {
  'auto-approve': { takes: [] },
  'auto-reject': { takes: [] },
  remind: { takes: ['repeatEvery'] },
  transfer: { needs: 'transferTo', takes: ['transferTo'] },
  escalate: { needs: 'escalateTo', takes: ['escalateTo'] },
};

/** An ISO 8601 duration whose every number is zero (`PT0S`, `P0D`); seconds are positive integers by the schema already. */
function isZeroDuration(value: string | number): boolean {
  return typeof value === 'string' && !/[1-9]/.test(value);
}

function checkTimeout(node: ApprovalNode, entry: NodeEntry, add: (code: string, entry: NodeEntry, message: string, path?: string) => void): void {
  const timeout = node.timeout;
  if (!timeout) return;
  const at = `${entry.path}.timeout`;
  const fields = TIMEOUT_FIELDS[timeout.action];
  if (fields.needs && timeout[fields.needs] === undefined)
    add(C.TimeoutTargetMissing, entry, `timeout action "${timeout.action}" needs \`${fields.needs}\``, `${at}.${fields.needs}`);
  for (const field of ['repeatEvery', 'transferTo', 'escalateTo'] as const) {
    if (timeout[field] !== undefined && !fields.takes.includes(field))
      add(C.TimeoutFieldNotAllowed, entry, `\`${field}\` does not apply to timeout action "${timeout.action}"`, `${at}.${field}`);
  }
  if (isZeroDuration(timeout.after)) add(C.TimeoutDurationInvalid, entry, 'a timeout must be longer than zero', `${at}.after`);
  if (timeout.repeatEvery !== undefined && isZeroDuration(timeout.repeatEvery))
    add(C.TimeoutDurationInvalid, entry, 'reminders cannot repeat every zero seconds', `${at}.repeatEvery`);
}

import type { ProgressNode } from './workflow-api';

/**
 * The block-structured definition format (libs/services/workflow-engine/docs/definitions-format.md),
 * as far as the Tasks screen needs it: a sequence of nodes, where a gateway holds branches, each a
 * sequence of its own, joined implicitly where the gateway's block ends. Read defensively from the
 * version's JSON: anything unexpected is dropped rather than trusted.
 */
export interface FlowBranch {
  key?: string;
  name?: string;
  condition?: unknown;
  default?: boolean;
  nodes: FlowNode[];
}

export interface FlowNode {
  key: string;
  kind: string;
  name?: string;
  mode?: string;
  result?: string;
  operations?: { transfer?: boolean; delegate?: boolean; addSigner?: boolean; rejectTargets?: string[] | string };
  branches?: FlowBranch[];
}

export interface FlowVariable {
  name: string;
  type: string;
  description?: string;
}

export interface FlowDefinition {
  name: string;
  description?: string;
  variables: FlowVariable[];
  nodes: FlowNode[];
}

export const START_KEY = 'start';
export const GATEWAY_KINDS = new Set(['exclusive', 'parallel']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function parseNodes(value: unknown): FlowNode[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): FlowNode[] => {
    if (!isObject(raw) || typeof raw.key !== 'string' || typeof raw.kind !== 'string') return [];
    const operations = isObject(raw.operations) ? raw.operations : undefined;
    return [
      {
        key: raw.key,
        kind: raw.kind,
        name: text(raw.name),
        mode: text(raw.mode),
        result: text(raw.result),
        operations: operations && {
          transfer: operations.transfer === true,
          delegate: operations.delegate === true,
          addSigner: operations.addSigner === true,
          rejectTargets: Array.isArray(operations.rejectTargets)
            ? operations.rejectTargets.filter((t): t is string => typeof t === 'string')
            : text(operations.rejectTargets),
        },
        branches: Array.isArray(raw.branches)
          ? raw.branches.filter(isObject).map((branch) => ({
              key: text(branch.key),
              name: text(branch.name),
              condition: branch.condition,
              default: branch.default === true,
              nodes: parseNodes(branch.nodes),
            }))
          : undefined,
      },
    ];
  });
}

export function parseDefinition(json: unknown): FlowDefinition | undefined {
  if (!isObject(json)) return undefined;
  const nodes = parseNodes(json.nodes);
  if (nodes.length === 0) return undefined;
  const variables = Array.isArray(json.variables)
    ? json.variables
        .filter(isObject)
        .flatMap((v) => (typeof v.name === 'string' ? [{ name: v.name, type: text(v.type) ?? 'unknown', description: text(v.description) }] : []))
    : [];
  return { name: text(json.name) ?? '', description: text(json.description), variables, nodes };
}

/**
 * Without the definition (no `workflow.definition.view`, say) the progress route still lists every
 * node in definition order: drawn as one column, gateways as plain steps.
 */
export function flatDefinition(nodes: ProgressNode[]): FlowDefinition {
  return { name: '', variables: [], nodes: nodes.map((node) => ({ key: node.key, kind: node.kind, name: node.name ?? undefined })) };
}

/** Every node of the tree, depth first (the order the engine lists them in). */
export function allNodes(nodes: FlowNode[]): FlowNode[] {
  return nodes.flatMap((node) => [node, ...(node.branches ?? []).flatMap((branch) => allNodes(branch.nodes))]);
}

export function findNode(definition: FlowDefinition, key: string): FlowNode | undefined {
  return allNodes(definition.nodes).find((node) => node.key === key);
}

/** The sequences from the main one down to the one holding `key`, with the node's index in each. */
function frames(nodes: FlowNode[], key: string): Array<{ sequence: FlowNode[]; index: number }> | undefined {
  for (const [index, node] of nodes.entries()) {
    if (node.key === key) return [{ sequence: nodes, index }];
    for (const branch of node.branches ?? []) {
      const inner = frames(branch.nodes, key);
      if (inner) return [{ sequence: nodes, index }, ...inner];
    }
  }
  return undefined;
}

/** The approvals every path to `key` has passed, nearest first (as the engine's `approvalsBehind`). */
export function approvalsBehind(definition: FlowDefinition, key: string): string[] {
  const path = frames(definition.nodes, key) ?? [];
  return path
    .reverse()
    .flatMap(({ sequence, index }) => sequence.slice(0, index).reverse())
    .filter((node) => node.kind === 'approval')
    .map((node) => node.key);
}

/** Where a rejection at this approval may send the instance (`start`: back to the initiator). */
export function rejectTargets(definition: FlowDefinition, key: string): string[] {
  const spec = findNode(definition, key)?.operations?.rejectTargets;
  if (spec === undefined) return [];
  if (spec === 'start') return [START_KEY];
  if (spec === 'previous') return approvalsBehind(definition, key).slice(0, 1);
  return Array.isArray(spec) ? spec : [];
}

export function nodeLabel(node: { key: string; name?: string | null }): string {
  return node.name ? node.name : node.key;
}

const KIND_LABELS: Record<string, string> = {
  approval: 'Approval',
  cc: 'Notification',
  end: 'End',
  exclusive: 'Exclusive gateway',
  parallel: 'Parallel gateway',
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

/** A JSONLogic condition in a few words (`amount > 10000`); anything unusual as its JSON. */
export function describeCondition(rule: unknown): string {
  if (!isObject(rule)) return JSON.stringify(rule);
  const entries = Object.entries(rule);
  const [op, raw] = entries[0] ?? [];
  if (entries.length !== 1 || op === undefined) return JSON.stringify(rule);
  const args = Array.isArray(raw) ? raw : [raw];
  if (op === 'var') return String(args[0] ?? '');
  const operand = (value: unknown) => (isObject(value) ? describeCondition(value) : JSON.stringify(value));
  if (['==', '===', '!=', '!==', '>', '>=', '<', '<=', 'in', '+', '-', '*', '/', '%'].includes(op)) {
    if (args.length === 3 && (op === '<' || op === '<=')) return `${operand(args[0])} ${op} ${operand(args[1])} ${op} ${operand(args[2])}`;
    return args.map(operand).join(` ${op} `);
  }
  if (op === 'and' || op === 'or') return args.map((arg) => `(${operand(arg)})`).join(` ${op} `);
  if (op === '!') return `not ${operand(args[0])}`;
  return JSON.stringify(rule);
}

import type { Branch, FlowNode, WorkflowDefinition } from '../engine';

/** A node as an assignee sees it: what it is and what may be done there, not who is picked or why. */
export interface OutlineNode {
  key: string;
  kind: FlowNode['kind'];
  name?: string;
  mode?: string;
  result?: string;
  operations?: Record<string, unknown>;
  branches?: Array<{ key?: string; name?: string; condition?: Record<string, unknown>; default?: boolean; nodes: OutlineNode[] }>;
}

export interface DefinitionOutline {
  name: string;
  description?: string;
  variables: Array<{ name: string; type: string; description?: string }>;
  nodes: OutlineNode[];
}

function outlineNode(node: FlowNode): OutlineNode {
  const base: OutlineNode = { key: node.key, kind: node.kind, ...(node.name !== undefined ? { name: node.name } : {}) };
  switch (node.kind) {
    case 'approval':
      return { ...base, mode: node.mode, ...(node.operations ? { operations: { ...node.operations } } : {}) };
    case 'end':
      return { ...base, result: node.result };
    case 'exclusive':
    case 'parallel':
      return { ...base, branches: node.branches.map(outlineBranch) };
    case 'cc':
      return base;
  }
}

function outlineBranch(branch: Branch): NonNullable<OutlineNode['branches']>[number] {
  return {
    ...(branch.key !== undefined ? { key: branch.key } : {}),
    ...(branch.name !== undefined ? { name: branch.name } : {}),
    ...(branch.condition !== undefined ? { condition: branch.condition } : {}),
    ...(branch.default ? { default: true } : {}),
    nodes: branch.nodes.map(outlineNode),
  };
}

/**
 * The shape of a version as a task's assignee may see it, without `workflow.definition.view`: the
 * nodes, branches with their conditions (over the business data the task shows already), names,
 * modes and allowed operations (to draw the progress graph and offer the task's actions), and the
 * declared variables (to label that data). Left out: assignee rules, cc recipients, timeouts and the
 * process admins, which say who is picked, and stay with `workflow.definition.view`.
 */
export function outlineOf(definition: WorkflowDefinition): DefinitionOutline {
  return {
    name: definition.name,
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    variables: (definition.variables ?? []).map((v) => ({
      name: v.name,
      type: v.type,
      ...(v.description !== undefined ? { description: v.description } : {}),
    })),
    nodes: definition.nodes.map(outlineNode),
  };
}

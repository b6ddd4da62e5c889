import { ApprovalNode, FlowNode, GatewayNode, START_KEY, WorkflowDefinition } from './definition.model';

/** Where a node sits in the block tree. */
export interface NodeEntry {
  node: FlowNode;
  /** JSON path inside the definition, e.g. `nodes[1].branches[0].nodes[2]`. */
  path: string;
  sequence: readonly FlowNode[];
  index: number;
  /** Enclosing gateways, outermost first, with the branch taken inside each. */
  scope: ReadonlyArray<{ gateway: string; branch: number }>;
}

/**
 * What follows once a node is done: another node, the end of a gateway's branch (the join), or the
 * end of the main sequence (the instance completes, approved). A runtime token is one of these.
 */
export type Continuation = { kind: 'node'; key: string } | { kind: 'join'; gateway: string; branch: number } | { kind: 'complete' };

/** Every node of the tree in document order (duplicates included: the validation reports them). */
export function listNodes(definition: Pick<WorkflowDefinition, 'nodes'>): NodeEntry[] {
  const entries: NodeEntry[] = [];
  const visit = (sequence: readonly FlowNode[], at: string, scope: NodeEntry['scope']): void => {
    sequence.forEach((node, index) => {
      const path = `${at}[${index}]`;
      entries.push({ node, path, sequence, index, scope });
      if (node.kind === 'exclusive' || node.kind === 'parallel') {
        node.branches.forEach((branch, b) => visit(branch.nodes, `${path}.branches[${b}].nodes`, [...scope, { gateway: node.key, branch: b }]));
      }
    });
  };
  visit(definition.nodes, 'nodes', []);
  return entries;
}

/**
 * The definition indexed by node key: the navigation the walker, the static validation and (later)
 * the runtime share. Built from a compiled definition; with duplicate keys the first one wins.
 */
export class DefinitionGraph {
  private readonly entries = new Map<string, NodeEntry>();

  private constructor(readonly definition: WorkflowDefinition) {
    for (const entry of listNodes(definition)) if (!this.entries.has(entry.node.key)) this.entries.set(entry.node.key, entry);
  }

  static of(definition: WorkflowDefinition): DefinitionGraph {
    return new DefinitionGraph(definition);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  entry(key: string): NodeEntry {
    const entry = this.entries.get(key);
    if (!entry) throw new Error(`no node "${key}" in definition "${this.definition.name}"`);
    return entry;
  }

  node(key: string): FlowNode {
    return this.entry(key).node;
  }

  gateway(key: string): GatewayNode {
    const node = this.node(key);
    if (node.kind !== 'exclusive' && node.kind !== 'parallel') throw new Error(`node "${key}" is not a gateway`);
    return node;
  }

  /** Where the flow goes from the start (or after a resubmission). */
  first(): Continuation {
    const head = this.definition.nodes[0];
    return head ? { kind: 'node', key: head.key } : { kind: 'complete' };
  }

  /** What follows the node once it is done. */
  after(key: string): Continuation {
    const { sequence, index, scope } = this.entry(key);
    const next = sequence[index + 1];
    if (next) return { kind: 'node', key: next.key };
    const enclosing = scope.at(-1);
    return enclosing ? { kind: 'join', gateway: enclosing.gateway, branch: enclosing.branch } : { kind: 'complete' };
  }

  /** Where a branch of a gateway begins (an empty branch goes straight to the join). */
  branchEntry(gatewayKey: string, branch: number): Continuation {
    const head = this.gateway(gatewayKey).branches[branch]?.nodes[0];
    return head ? { kind: 'node', key: head.key } : { kind: 'join', gateway: gatewayKey, branch };
  }

  /**
   * The approval nodes behind a node, nearest first: those before it in its own sequence and, for
   * each enclosing gateway, those before the gateway. In a block structure these are exactly the
   * approvals every path to the node has passed, so they are the only safe reject targets (a node in
   * another branch may never have run).
   */
  approvalsBehind(key: string): string[] {
    const behind: string[] = [];
    let current: NodeEntry | undefined = this.entry(key);
    while (current) {
      for (const earlier of current.sequence.slice(0, current.index).reverse()) if (earlier.kind === 'approval') behind.push(earlier.key);
      const enclosing: { gateway: string } | undefined = current.scope.at(-1);
      current = enclosing ? this.entry(enclosing.gateway) : undefined;
    }
    return behind;
  }

  /** The concrete targets a rejection at this approval may pick (`start` included when allowed). */
  rejectTargets(node: ApprovalNode): string[] {
    const spec = node.operations?.rejectTargets;
    if (spec === undefined) return [];
    if (spec === 'start') return [START_KEY];
    if (spec === 'previous') return this.approvalsBehind(node.key).slice(0, 1);
    return spec;
  }

  /** Whether `key` lies inside a branch of the gateway. */
  isInside(key: string, gatewayKey: string): boolean {
    return this.entry(key).scope.some((s) => s.gateway === gatewayKey);
  }
}

import { describeCondition, FlowBranch, FlowDefinition, FlowNode, kindLabel, nodeLabel } from './definition-model';
import { isGateway, NodeStatus } from './node-states';

/**
 * The progress graph's geometry, computed from the definition's block structure alone (no layout
 * library): a sequence is a column, a gateway's branches stand side by side between its split and
 * its join, every block is centred on its column, so every edge is a vertical line or an elbow.
 * Pure: shapes and edges in SVG user units, drawn by `ProgressGraph`.
 */
export const BOX_W = 196;
export const BOX_H = 62;
const GAP_Y = 32;
const GAP_X = 24;
export const DIAMOND = 36;
export const JOIN = 24;
const SIDE_LABEL_W = 180;
const BRANCH_LABEL_H = 20;
export const TERMINAL = 34;
const MARGIN = 12;
/** About how wide a character of the 12–13 px labels is: enough to cut long names with an ellipsis. */
const CHAR_W = 7;

export type ShapeKind = 'box' | 'gateway' | 'join' | 'terminal';

export interface Shape {
  shape: ShapeKind;
  /** The node key (`start` / `end` for the terminals, `<gateway>:join` for a join). */
  key: string;
  kind: string;
  /** Left, top, width, height of the symbol itself. */
  x: number;
  y: number;
  w: number;
  h: number;
  title: string;
  kindText: string;
  status: NodeStatus;
}

export interface Edge {
  id: string;
  /** The polyline, ending at the target's top. */
  points: Array<[number, number]>;
  /** Whether the flow went this way (its target was reached). */
  taken: boolean;
  label?: { text: string; x: number; y: number };
}

export interface GraphLayout {
  width: number;
  height: number;
  shapes: Shape[];
  edges: Edge[];
}

interface Block {
  w: number;
  h: number;
  /** The flow reached the block's first symbol. */
  entered: boolean;
  /** The flow left the block at its bottom. */
  left: boolean;
  /** Draws the block with its top-left corner at (x, y); its column is x + w / 2. */
  place(x: number, y: number, out: GraphLayout): void;
}

const reachedStates = new Set(['done', 'active', 'rejected']);

export function truncate(text: string, width: number, charWidth = CHAR_W): string {
  const max = Math.max(4, Math.floor(width / charWidth));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function layoutGraph(definition: FlowDefinition, statuses: Map<string, NodeStatus>, start: NodeStatus, end: NodeStatus): GraphLayout {
  const statusOf = (key: string): NodeStatus => statuses.get(key) ?? { state: 'pending', detail: 'no progress for this node' };
  let edgeCount = 0;
  const edge = (out: GraphLayout, points: Array<[number, number]>, taken: boolean, label?: Edge['label']) =>
    out.edges.push({ id: `e${edgeCount++}`, points, taken, label });

  function terminal(key: 'start' | 'end', status: NodeStatus): Block {
    const w = TERMINAL + 2 * (SIDE_LABEL_W + 8);
    const reached = reachedStates.has(status.state);
    return {
      w,
      h: TERMINAL,
      entered: reached,
      left: status.state === 'done',
      place(x, y, out) {
        out.shapes.push({
          shape: 'terminal',
          key,
          kind: key,
          x: x + w / 2 - TERMINAL / 2,
          y,
          w: TERMINAL,
          h: TERMINAL,
          title: key === 'start' ? 'Start' : 'End',
          kindText: key === 'start' ? 'Start' : 'End',
          status,
        });
      },
    };
  }

  function leaf(node: FlowNode): Block {
    const status = statusOf(node.key);
    return {
      w: BOX_W,
      h: BOX_H,
      entered: reachedStates.has(status.state),
      left: status.state === 'done',
      place(x, y, out) {
        out.shapes.push({
          shape: 'box',
          key: node.key,
          kind: node.kind,
          x,
          y,
          w: BOX_W,
          h: BOX_H,
          title: nodeLabel(node),
          kindText: node.kind === 'end' && node.result ? `End (${node.result})` : kindLabel(node.kind),
          status,
        });
      },
    };
  }

  function branchLabel(gateway: FlowNode, branch: FlowBranch, index: number): string | undefined {
    if (gateway.kind !== 'exclusive') return undefined;
    const name = branch.name ?? branch.key ?? `Branch ${index + 1}`;
    if (branch.default) return `${name}: default`;
    return branch.condition === undefined ? name : `${name}: ${describeCondition(branch.condition)}`;
  }

  function gateway(node: FlowNode): Block {
    const status = statusOf(node.key);
    const branches = (node.branches ?? []).map((branch) => sequence(branch.nodes));
    const labelled = node.kind === 'exclusive';
    const branchesW = branches.reduce((sum, b) => sum + b.w, 0) + GAP_X * (branches.length - 1);
    const w = Math.max(DIAMOND + 2 * (SIDE_LABEL_W + 8), branchesW);
    const branchTop = DIAMOND + GAP_Y + (labelled ? BRANCH_LABEL_H : 0);
    const tallest = Math.max(...branches.map((b) => b.h));
    const joinTop = branchTop + tallest + GAP_Y;
    const entered = reachedStates.has(status.state);
    const enteredBranches = branches.filter((b) => b.entered);
    const left =
      entered && enteredBranches.length > 0 && enteredBranches.every((b) => b.left) && (node.kind !== 'parallel' || enteredBranches.length === branches.length);
    return {
      w,
      h: joinTop + JOIN,
      entered,
      left,
      place(x, y, out) {
        const cx = x + w / 2;
        out.shapes.push({
          shape: 'gateway',
          key: node.key,
          kind: node.kind,
          x: cx - DIAMOND / 2,
          y,
          w: DIAMOND,
          h: DIAMOND,
          title: nodeLabel(node),
          // The diamond says "gateway"; its side label stays short.
          kindText: node.kind === 'parallel' ? 'Parallel' : node.kind === 'exclusive' ? 'Exclusive' : kindLabel(node.kind),
          status,
        });
        const forkY = y + DIAMOND + GAP_Y / 2;
        const mergeY = y + branchTop + tallest + GAP_Y / 2;
        let bx = x + (w - branchesW) / 2;
        branches.forEach((branch, index) => {
          const bcx = bx + branch.w / 2;
          const text = branchLabel(node, node.branches?.[index] as FlowBranch, index);
          edge(
            out,
            [
              [cx, y + DIAMOND],
              [cx, forkY],
              [bcx, forkY],
              [bcx, y + branchTop],
            ],
            entered && branch.entered,
            text ? { text: truncate(text, branch.w - 8, 6.4), x: bcx, y: forkY + BRANCH_LABEL_H - 4 } : undefined,
          );
          branch.place(bx, y + branchTop, out);
          edge(
            out,
            [
              [bcx, y + branchTop + branch.h],
              [bcx, mergeY],
              [cx, mergeY],
              [cx, y + joinTop],
            ],
            branch.left,
          );
          bx += branch.w + GAP_X;
        });
        out.shapes.push({
          shape: 'join',
          key: `${node.key}:join`,
          kind: node.kind,
          x: cx - JOIN / 2,
          y: y + joinTop,
          w: JOIN,
          h: JOIN,
          title: `${nodeLabel(node)} (join)`,
          kindText: `Join of ${kindLabel(node.kind).toLowerCase()}`,
          status: left ? { state: 'done', detail: 'joined' } : { state: 'pending', detail: 'not joined yet' },
        });
      },
    };
  }

  function sequence(nodes: FlowNode[], before: Block[] = [], after: Block[] = []): Block {
    const blocks = [...before, ...nodes.map((node) => (isGateway(node) ? gateway(node) : leaf(node))), ...after];
    const w = Math.max(BOX_W, ...blocks.map((b) => b.w));
    const h = blocks.reduce((sum, b) => sum + b.h, 0) + GAP_Y * Math.max(0, blocks.length - 1);
    return {
      w,
      h,
      entered: blocks[0]?.entered ?? false,
      left: blocks.at(-1)?.left ?? false,
      place(x, y, out) {
        const cx = x + w / 2;
        let top = y;
        blocks.forEach((block, index) => {
          const previous = blocks[index - 1];
          if (previous)
            edge(
              out,
              [
                [cx, top - GAP_Y],
                [cx, top],
              ],
              previous.left && block.entered,
            );
          block.place(cx - block.w / 2, top, out);
          top += block.h + GAP_Y;
        });
      },
    };
  }

  const main = sequence(definition.nodes, [terminal('start', start)], [terminal('end', end)]);
  const out: GraphLayout = { width: main.w + 2 * MARGIN, height: main.h + 2 * MARGIN, shapes: [], edges: [] };
  main.place(MARGIN, MARGIN, out);
  return out;
}

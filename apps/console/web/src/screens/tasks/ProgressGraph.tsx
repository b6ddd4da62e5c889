import { ReactNode, useId } from 'react';
import { FlowDefinition, FlowNode, kindLabel, nodeLabel } from './definition-model';
import { BOX_H, Edge, GraphLayout, layoutGraph, Shape, truncate } from './graph-layout';
import { DISPLAY_STATES, isGateway, NodeDisplayState, NodeStatus, STATE_LABELS, STATE_SYMBOLS } from './node-states';

/**
 * The instance's progress drawn as an SVG diagram (layout in `graph-layout.ts`), each node's state
 * shown three ways: its colour, its outline and stripe pattern, and its words (symbol + state). The
 * diagram is one image for assistive technology; the list beside it says the same in text.
 */
export function ProgressGraph({
  definition,
  statuses,
  start,
  end,
  caption,
}: {
  definition: FlowDefinition;
  statuses: Map<string, NodeStatus>;
  start: NodeStatus;
  end: NodeStatus;
  caption: string;
}) {
  const prefix = useId().replace(/[^A-Za-z0-9]/g, '');
  const layout = layoutGraph(definition, statuses, start, end);
  const active = [...statuses.entries()].filter(([, status]) => status.state === 'active').map(([key]) => key);
  const labelOf = (key: string) => {
    const node = findByKey(definition.nodes, key);
    return node ? nodeLabel(node) : key;
  };
  const summary =
    active.length > 0
      ? `active: ${active.map(labelOf).join(', ')}`
      : end.state === 'pending'
        ? end.detail
        : `instance ${end.detail.replace(/^completed: /, '')}`;
  return (
    <figure className="progress-figure">
      <svg
        className="progress-graph"
        role="img"
        aria-labelledby={`${prefix}-title`}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width={layout.width}
        height={layout.height}
        data-testid="progress-graph"
      >
        <title id={`${prefix}-title`}>{`${caption}: ${summary}. The list "Nodes and their states" describes every node.`}</title>
        <GraphDefs prefix={prefix} />
        {layout.edges.map((edge) => (
          <EdgePath key={edge.id} edge={edge} prefix={prefix} />
        ))}
        {layout.shapes.map((shape) => (
          <ShapeView key={shape.key} shape={shape} prefix={prefix} />
        ))}
        {layout.edges.map((edge) =>
          edge.label ? (
            <text key={`${edge.id}-label`} className="branch-label" x={edge.label.x} y={edge.label.y} textAnchor="middle">
              {edge.label.text}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="graph-legend">
        <span className="legend-title">Legend:</span>
        <ul>
          {DISPLAY_STATES.map((state) => (
            <li key={state}>
              <svg width="30" height="18" aria-hidden="true" focusable="false">
                <rect className={`node-box state-${state}`} x="1" y="1" width="28" height="16" rx="3" />
                <rect x="1" y="1" width="8" height="16" fill={bandFill(state, prefix)} className={`node-band state-${state}`} />
              </svg>
              {STATE_SYMBOLS[state]} {STATE_LABELS[state]}
            </li>
          ))}
        </ul>
      </figcaption>
      <NodeStateList definition={definition} statuses={statuses} start={start} end={end} />
      <LayoutSize layout={layout} />
    </figure>
  );
}

function findByKey(nodes: FlowNode[], key: string): FlowNode | undefined {
  for (const node of nodes) {
    if (node.key === key) return node;
    for (const branch of node.branches ?? []) {
      const found = findByKey(branch.nodes, key);
      if (found) return found;
    }
  }
  return undefined;
}

/** Hidden numbers for the tests: how big the drawing came out. */
function LayoutSize({ layout }: { layout: GraphLayout }) {
  return <span hidden data-testid="graph-size" data-width={layout.width} data-height={layout.height} data-shapes={layout.shapes.length} />;
}

function bandFill(state: NodeDisplayState, prefix: string): string | undefined {
  if (state === 'rejected') return `url(#${prefix}-hatch-rejected)`;
  if (state === 'skipped') return `url(#${prefix}-dots-skipped)`;
  if (state === 'cancelled') return `url(#${prefix}-hatch-cancelled)`;
  return undefined;
}

function GraphDefs({ prefix }: { prefix: string }) {
  return (
    <defs>
      <marker id={`${prefix}-arrow-taken`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" className="arrow-taken" />
      </marker>
      <marker id={`${prefix}-arrow-open`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" className="arrow-open" />
      </marker>
      <pattern id={`${prefix}-hatch-rejected`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="6" height="6" className="pattern-rejected-bg" />
        <line x1="0" y1="0" x2="0" y2="6" className="pattern-rejected-line" />
      </pattern>
      <pattern id={`${prefix}-hatch-cancelled`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
        <rect width="6" height="6" className="pattern-cancelled-bg" />
        <line x1="0" y1="0" x2="0" y2="6" className="pattern-cancelled-line" />
      </pattern>
      <pattern id={`${prefix}-dots-skipped`} width="5" height="5" patternUnits="userSpaceOnUse">
        <rect width="5" height="5" className="pattern-skipped-bg" />
        <circle cx="2.5" cy="2.5" r="1.1" className="pattern-skipped-dot" />
      </pattern>
    </defs>
  );
}

function EdgePath({ edge, prefix }: { edge: Edge; prefix: string }) {
  const d = edge.points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${x},${y}`).join(' ');
  return (
    <path
      d={d}
      className={edge.taken ? 'edge edge-taken' : 'edge edge-open'}
      markerEnd={`url(#${prefix}-arrow-${edge.taken ? 'taken' : 'open'})`}
      data-taken={edge.taken}
    />
  );
}

function stateLine(status: NodeStatus, kindText?: string): string {
  return `${STATE_SYMBOLS[status.state]} ${STATE_LABELS[status.state]}${kindText ? ` · ${kindText}` : ''}`;
}

function ShapeView({ shape, prefix }: { shape: Shape; prefix: string }) {
  const { state } = shape.status;
  const common = { 'data-node': shape.key, 'data-state': state, className: `node node-shape-${shape.shape} state-${state}` };
  const tooltip = <title>{`${shape.title} (${shape.kindText}): ${STATE_LABELS[state]}, ${shape.status.detail}`}</title>;
  if (shape.shape === 'box') {
    const textX = shape.x + 18;
    return (
      <g {...common}>
        {tooltip}
        <rect className={`node-box state-${state}`} x={shape.x} y={shape.y} width={shape.w} height={shape.h} rx="8" />
        <rect className={`node-band state-${state}`} x={shape.x + 1.5} y={shape.y + 1.5} width="10" height={BOX_H - 3} rx="3" fill={bandFill(state, prefix)} />
        <text className="node-title" x={textX} y={shape.y + 19}>
          {truncate(shape.title, shape.w - 26, 7.6)}
        </text>
        <text className="node-state" x={textX} y={shape.y + 37}>
          {truncate(stateLine(shape.status, shape.kindText), shape.w - 26)}
        </text>
        <text className="node-detail" x={textX} y={shape.y + 53}>
          {truncate(shape.status.detail, shape.w - 26, 6.4)}
        </text>
      </g>
    );
  }
  const cx = shape.x + shape.w / 2;
  const cy = shape.y + shape.h / 2;
  const side = (
    <>
      <text className="node-title" x={shape.x + shape.w + 10} y={shape.y + 8}>
        {truncate(shape.title, 176, 7.6)}
      </text>
      <text className="node-state" x={shape.x + shape.w + 10} y={shape.y + 24}>
        {truncate(stateLine(shape.status, shape.shape === 'gateway' ? shape.kindText : undefined), 176)}
      </text>
      <text className="node-detail" x={shape.x + shape.w + 10} y={shape.y + 39}>
        {truncate(shape.status.detail, 176, 6.4)}
      </text>
    </>
  );
  if (shape.shape === 'terminal') {
    return (
      <g {...common}>
        {tooltip}
        <circle className={`node-box state-${state}`} cx={cx} cy={cy} r={shape.w / 2} />
        {shape.key === 'end' ? <circle className="terminal-end-ring" cx={cx} cy={cy} r={shape.w / 2 - 5} /> : null}
        <text className="node-symbol" x={cx} y={cy + 5} textAnchor="middle">
          {STATE_SYMBOLS[state]}
        </text>
        {side}
      </g>
    );
  }
  const points = `${cx},${shape.y} ${shape.x + shape.w},${cy} ${cx},${shape.y + shape.h} ${shape.x},${cy}`;
  return (
    <g {...common}>
      {tooltip}
      <polygon className={`node-box state-${state}`} points={points} />
      <text className="node-symbol" x={cx} y={cy + 5} textAnchor="middle">
        {shape.kind === 'parallel' ? '+' : '×'}
      </text>
      {shape.shape === 'gateway' ? side : null}
    </g>
  );
}

/** The text alternative: the same nodes and states as a nested list, in reading order. */
function NodeStateList({
  definition,
  statuses,
  start,
  end,
}: {
  definition: FlowDefinition;
  statuses: Map<string, NodeStatus>;
  start: NodeStatus;
  end: NodeStatus;
}) {
  const headingId = useId();
  return (
    <div className="node-state-list">
      <h3 id={headingId}>Nodes and their states</h3>
      <ol aria-labelledby={headingId}>
        <StateItem label="Start" kind="Start" status={start} nodeKey="start" />
        <NodeItems nodes={definition.nodes} statuses={statuses} />
        <StateItem label="End" kind="End" status={end} nodeKey="end" />
      </ol>
    </div>
  );
}

function NodeItems({ nodes, statuses }: { nodes: FlowNode[]; statuses: Map<string, NodeStatus> }) {
  return (
    <>
      {nodes.map((node) => {
        const status = statuses.get(node.key) ?? { state: 'pending' as const, detail: 'no progress for this node' };
        return (
          <StateItem key={node.key} label={nodeLabel(node)} kind={kindLabel(node.kind)} status={status} nodeKey={node.key}>
            {isGateway(node) ? (
              <ul>
                {(node.branches ?? []).map((branch, index) => (
                  <li key={branch.key ?? index}>
                    Branch {branch.name ?? branch.key ?? index + 1}
                    {branch.default ? ' (default)' : ''}
                    <ol>
                      <NodeItems nodes={branch.nodes} statuses={statuses} />
                    </ol>
                  </li>
                ))}
              </ul>
            ) : null}
          </StateItem>
        );
      })}
    </>
  );
}

function StateItem({ label, kind, status, nodeKey, children }: { label: string; kind: string; status: NodeStatus; nodeKey?: string; children?: ReactNode }) {
  return (
    <li data-node={nodeKey} data-state={status.state}>
      <strong>{label}</strong> ({kind}
      {nodeKey && nodeKey.toLowerCase() !== label.toLowerCase() ? `, key ${nodeKey}` : ''}):{' '}
      <span className={`state-text state-${status.state}`}>
        {STATE_SYMBOLS[status.state]} {STATE_LABELS[status.state]}
      </span>{' '}
      — {status.detail}
      {children}
    </li>
  );
}

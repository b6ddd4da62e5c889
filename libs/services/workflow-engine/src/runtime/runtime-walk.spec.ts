import { compileDefinition, DefinitionGraph } from '../engine';
import { emptyPosition, RuntimeWalk, WalkError } from './runtime-walk';

const approval = (key: string, subjects: string[], extra: Record<string, unknown> = {}) => ({
  kind: 'approval',
  key,
  assignees: [{ kind: 'user', subjects }],
  ...extra,
});

function graph(nodes: unknown[], admins?: string[]): DefinitionGraph {
  const compiled = compileDefinition({ name: 'test', nodes, ...(admins ? { admins } : {}) });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  return DefinitionGraph.of(compiled.definition);
}

const sources = (variables: Record<string, unknown> = {}) => ({ initiator: 'ina', variables, membersOfRole: () => Promise.resolve([]) });

describe('RuntimeWalk', () => {
  it('opens one task of a sequential node, every task of an all node, and parks the node', async () => {
    const g = graph([approval('seq', ['a', 'b']), approval('both', ['c', 'd'], { mode: 'all' })]);
    const position = emptyPosition();
    const first = await new RuntimeWalk(g, position, sources()).start();
    expect(first.opened).toEqual([{ nodeKey: 'seq', visit: 1, seq: 0, assignee: 'a' }]);
    expect(position.parked['seq']).toEqual({ visit: 1, assignees: ['a', 'b'], mode: { mode: 'sequential' } });
    const second = await new RuntimeWalk(g, position, sources()).approved('seq');
    expect(second.opened.map((t) => t.assignee)).toEqual(['c', 'd']);
    expect(Object.keys(position.parked)).toEqual(['both']);
    const last = await new RuntimeWalk(g, position, sources()).approved('both');
    expect(last.outcome).toBe('approved');
    expect(position.parked).toEqual({});
  });

  it('takes the exclusive branch the variables select, and the default otherwise', async () => {
    const g = graph([
      {
        kind: 'exclusive',
        key: 'amount',
        branches: [
          { condition: { '>': [{ var: 'amount' }, 1000] }, nodes: [approval('cfo', ['cfo'])] },
          { default: true, nodes: [approval('lead', ['lead'])] },
        ],
      },
    ]);
    expect((await new RuntimeWalk(g, emptyPosition(), sources({ amount: 5000 })).start()).opened[0]?.assignee).toBe('cfo');
    expect((await new RuntimeWalk(g, emptyPosition(), sources({ amount: 5 })).start()).opened[0]?.assignee).toBe('lead');
  });

  it('joins parallel branches only when every branch arrived', async () => {
    const g = graph([{ kind: 'parallel', key: 'p', branches: [{ nodes: [approval('x', ['x'])] }, { nodes: [approval('y', ['y'])] }] }, approval('z', ['z'])]);
    const position = emptyPosition();
    expect((await new RuntimeWalk(g, position, sources()).start()).opened.map((t) => t.nodeKey)).toEqual(['x', 'y']);
    expect((await new RuntimeWalk(g, position, sources()).approved('x')).opened).toEqual([]);
    expect(position.arrived).toEqual({ p: [0] });
    expect((await new RuntimeWalk(g, position, sources()).approved('y')).opened.map((t) => t.nodeKey)).toEqual(['z']);
  });

  it('rejects the instance without a target, and sends it back to an allowed target with a second visit', async () => {
    const g = graph([approval('first', ['a']), approval('second', ['b'], { operations: { rejectTargets: 'previous' } })]);
    const position = emptyPosition();
    await new RuntimeWalk(g, position, sources()).start();
    await new RuntimeWalk(g, position, sources()).approved('first');
    RuntimeWalk.checkRejectTarget(g, 'second', 'first');
    expect(() => RuntimeWalk.checkRejectTarget(g, 'first', 'second')).toThrow(WalkError);
    const back = await new RuntimeWalk(g, position, sources()).rejected('second', 'first');
    expect(back.opened).toEqual([{ nodeKey: 'first', visit: 2, seq: 0, assignee: 'a' }]);
    const rejected = await new RuntimeWalk(g, position, sources()).rejected('first', undefined);
    expect(rejected.outcome).toBe('rejected');
  });

  it('a rejection to `start` cancels every open task and waits for the resubmit, which opens the first node again (visit 2)', async () => {
    const g = graph([
      {
        kind: 'parallel',
        key: 'p',
        branches: [{ nodes: [approval('x', ['x'], { operations: { rejectTargets: 'start' } })] }, { nodes: [approval('y', ['y'])] }],
      },
    ]);
    const position = emptyPosition();
    await new RuntimeWalk(g, position, sources()).start();
    const back = await new RuntimeWalk(g, position, sources()).rejected('x', 'start');
    expect(back).toMatchObject({ outcome: 'running', opened: [], cancelled: ['y'] });
    expect(position).toMatchObject({ parked: {}, arrived: {}, returned: true });
    const again = await new RuntimeWalk(g, position, sources()).resubmit();
    expect(again.opened).toEqual([
      { nodeKey: 'x', visit: 2, seq: 0, assignee: 'x' },
      { nodeKey: 'y', visit: 2, seq: 0, assignee: 'y' },
    ]);
    expect(position.returned).toBeUndefined();
  });

  it('auto-passes or gives an empty node to the admins, and refuses it under `error`', async () => {
    const empty = (policy: string) => ({ kind: 'approval', key: 'v', assignees: [{ kind: 'variable', variable: 'who' }], emptyAssignee: policy });
    expect((await new RuntimeWalk(graph([empty('auto-pass')]), emptyPosition(), sources()).start()).outcome).toBe('approved');
    const admins = await new RuntimeWalk(graph([empty('to-admin')], ['adm1', 'adm2']), emptyPosition(), sources()).start();
    expect(admins.opened.map((t) => t.assignee)).toEqual(['adm1', 'adm2']);
    await expect(new RuntimeWalk(graph([empty('error')]), emptyPosition(), sources()).start()).rejects.toMatchObject({
      code: 'Workflow.Runtime.AssigneeEmpty',
    });
  });

  describe('enterAt (start at a node, reset)', () => {
    /** intake, then an exclusive gateway whose `large` branch holds a parallel gateway (fin | desk), then the board. */
    const nested = () =>
      graph([
        approval('intake', ['lena']),
        {
          kind: 'exclusive',
          key: 'size',
          branches: [
            {
              key: 'large',
              condition: { '>': [{ var: 'amount' }, 1000] },
              nodes: [{ kind: 'parallel', key: 'reviews', branches: [{ nodes: [approval('fin', ['finn'])] }, { nodes: [approval('desk', ['dora'])] }] }],
            },
            { key: 'small', default: true, nodes: [approval('lead', ['leo'])] },
          ],
        },
        approval('board', ['bob']),
        { kind: 'cc', key: 'note', recipients: [{ kind: 'initiator' }] },
      ]);

    it('opens a main-sequence node and walks on from it as usual', async () => {
      const g = nested();
      const position = emptyPosition();
      const effects = await new RuntimeWalk(g, position, sources()).enterAt('board');
      expect(effects).toMatchObject({ opened: [{ nodeKey: 'board', visit: 1, seq: 0, assignee: 'bob' }], cancelled: [], outcome: 'running' });
      expect(position.path).toEqual(['start', 'board']);
      const done = await new RuntimeWalk(g, position, sources()).approved('board');
      expect(done).toMatchObject({ outcome: 'approved', notifications: [{ nodeKey: 'note', recipients: ['ina'] }] });
    });

    it('takes the branch of the node (no condition evaluated) and runs the sibling parallel branches from their start, joining as usual', async () => {
      const g = nested();
      const position = emptyPosition();
      const effects = await new RuntimeWalk(g, position, sources({ amount: 1 })).enterAt('fin');
      expect(effects.opened.map((t) => t.nodeKey)).toEqual(['fin', 'desk']);
      expect(position.path).toEqual(['start', 'size', 'reviews', 'fin', 'desk']);
      expect(position.arrived).toEqual({ reviews: [] });
      await new RuntimeWalk(g, position, sources()).approved('fin');
      expect((await new RuntimeWalk(g, position, sources()).approved('desk')).opened.map((t) => t.nodeKey)).toEqual(['board']);
    });

    it('a reset cancels every open node and opens the target with the next visit', async () => {
      const g = nested();
      const position = emptyPosition();
      await new RuntimeWalk(g, position, sources({ amount: 5000 })).start();
      await new RuntimeWalk(g, position, sources({ amount: 5000 })).approved('intake');
      expect(Object.keys(position.parked).sort()).toEqual(['desk', 'fin']);
      const reset = await new RuntimeWalk(g, position, sources()).enterAt('intake');
      expect(reset.cancelled.sort()).toEqual(['desk', 'fin']);
      expect(reset.opened).toEqual([{ nodeKey: 'intake', visit: 2, seq: 0, assignee: 'lena' }]);
      expect(position).toMatchObject({ parked: { intake: { visit: 2 } }, arrived: {} });
    });

    it('refuses a key that is no node, `start`, and nodes that are not approvals', () => {
      const g = nested();
      for (const key of ['nowhere', 'start', 'size', 'reviews', 'note']) {
        expect(() => RuntimeWalk.checkEntryNode(g, key)).toThrow(expect.objectContaining({ code: 'Workflow.Runtime.NodeNotAllowed', status: 422 }));
      }
      expect(() => RuntimeWalk.checkEntryNode(g, 'lead')).not.toThrow();
    });
  });
});

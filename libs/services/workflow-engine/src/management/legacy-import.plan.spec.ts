import { DefinitionGraph, definitionSchema } from '../engine';
import { legacyImportSchema } from './dto/legacy-import.dto';
import { planImport } from './legacy-import.plan';

const approval = (key: string, subjects: string[], extra: Record<string, unknown> = {}) => ({
  kind: 'approval',
  key,
  assignees: [{ kind: 'user', subjects }],
  ...extra,
});
const graph = DefinitionGraph.of(
  definitionSchema.parse({
    name: 'Plan',
    nodes: [
      approval('intake', ['ann']),
      {
        kind: 'parallel',
        key: 'reviews',
        branches: [{ nodes: [approval('fin', ['fay'])] }, { nodes: [approval('desk', ['dee'])] }, { nodes: [approval('law', ['lou'])] }],
      },
      approval('board', ['ann', 'bob'], { mode: 'all' }),
    ],
  }),
);
const body = (status: string, tasks: unknown[]) =>
  legacyImportSchema.parse({
    sourceId: 's',
    tenantId: 'default',
    definitionKey: 'plan',
    version: 1,
    businessKey: 'b',
    initiator: 'ina',
    status,
    createdAt: '2024-01-01T00:00:00Z',
    ...(status === 'Running' ? {} : { endedAt: '2024-02-01T00:00:00Z' }),
    tasks,
  });
const voted = (nodeKey: string, assignee: string, at: string, status = 'Approved') => ({ nodeKey, assignee, status, decidedBy: assignee, decidedAt: at });
const NOW = new Date('2025-01-01T00:00:00Z');

describe('planImport', () => {
  it('parks the open approvals of a running import; branches without open work count as arrived at the join', () => {
    const result = planImport(
      graph,
      body('Running', [
        voted('intake', 'ann', '2024-01-02T00:00:00Z'),
        voted('desk', 'dee', '2024-01-03T00:00:00Z'),
        { nodeKey: 'fin', assignee: 'fay', status: 'Pending' },
        { nodeKey: 'law', assignee: 'lou', status: 'Pending' },
      ]),
      NOW,
    );
    if (!('plan' in result)) throw new Error(JSON.stringify(result.problems));
    expect(result.plan.position).toEqual({
      parked: { fin: { visit: 1, assignees: ['fay'], mode: { mode: 'sequential' } }, law: { visit: 1, assignees: ['lou'], mode: { mode: 'sequential' } } },
      arrived: { reviews: [1] },
      visits: { intake: 1, desk: 1, fin: 1, law: 1 },
      path: ['start', 'intake', 'fin', 'desk', 'law'],
    });
  });

  it('seats the votes in the order they were cast, then the open tasks; other tasks keep their rows after the seats', () => {
    const result = planImport(
      graph,
      body('Running', [
        { nodeKey: 'board', assignee: 'bob', status: 'Pending' },
        { nodeKey: 'board', assignee: 'old', status: 'Transferred', decidedBy: 'old', decidedAt: '2024-01-02T00:00:00Z' },
        voted('board', 'ann', '2024-01-03T00:00:00Z'),
      ]),
      NOW,
    );
    if (!('plan' in result)) throw new Error(JSON.stringify(result.problems));
    expect(result.plan.position.parked['board']?.assignees).toEqual(['ann', 'bob']);
    expect(result.plan.tasks.map((t) => `${t.assignee}:${t.seq}`)).toEqual(['ann:0', 'bob:1', 'old:2']);
  });

  it('refuses open tasks on an earlier visit, on nodes of one sequence, twice one person, and on a node its votes decided', () => {
    const problems = (tasks: unknown[]) => {
      const result = planImport(graph, body('Running', tasks), NOW);
      return 'problems' in result ? result.problems : {};
    };
    expect(
      Object.keys(
        problems(
          [{ nodeKey: 'intake', assignee: 'ann', status: 'Pending' }, voted('intake', 'ann', '2024-01-02T00:00:00Z')].map((t, i) => ({ ...t, visit: i + 1 })),
        ),
      ),
    ).toEqual(['tasks[0].visit']);
    expect(
      problems([
        { nodeKey: 'intake', assignee: 'ann', status: 'Pending' },
        { nodeKey: 'board', assignee: 'bob', status: 'Pending' },
      ]).tasks,
    ).toEqual([expect.stringContaining('cannot wait at the same time')]);
    expect(problems([{ nodeKey: 'board', assignee: 'bob', status: 'Pending' }, voted('board', 'bob', '2024-01-02T00:00:00Z')]).tasks).toEqual([
      expect.stringContaining('two seats'),
    ]);
    expect(problems([voted('board', 'ann', '2024-01-02T00:00:00Z', 'Rejected'), { nodeKey: 'board', assignee: 'bob', status: 'Pending' }]).tasks).toEqual([
      expect.stringContaining('decided it already'),
    ]);
  });

  it('writes an ended import without parked nodes; a cancelled task ends when its instance did', () => {
    const result = planImport(graph, body('Cancelled', [{ nodeKey: 'intake', assignee: 'ann', status: 'Cancelled' }]), NOW);
    if (!('plan' in result)) throw new Error(JSON.stringify(result.problems));
    expect(result.plan.position.parked).toEqual({});
    expect(result.plan.tasks[0]).toMatchObject({ status: 'Cancelled', decidedAt: '2024-02-01T00:00:00Z', decidedBy: null });
  });
});

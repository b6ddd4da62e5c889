import { describe, expect, it } from '@jest/globals';
import { approvalsBehind, describeCondition, parseDefinition, rejectTargets } from './definition-model';
import { layoutGraph } from './graph-layout';
import { endStatus, nodeStatuses, startStatus } from './node-states';
import type { InstanceProgress, InstanceStatus, ProgressNode, WorkflowTask } from './workflow-api';

/** The progress graph's pure parts: definition reading, node states, layout. */
const definition = parseDefinition({
  name: 'Engagement letter',
  nodes: [
    { kind: 'approval', key: 'intake', assignees: [{ kind: 'user', subjects: ['lena'] }] },
    {
      kind: 'parallel',
      key: 'checks',
      branches: [
        { nodes: [{ kind: 'cc', key: 'notify', recipients: [{ kind: 'initiator' }] }] },
        {
          nodes: [
            {
              kind: 'exclusive',
              key: 'size',
              branches: [
                { key: 'large', condition: { '>': [{ var: 'amount' }, 10000] }, nodes: [{ kind: 'approval', key: 'finance', assignees: [] }] },
                { key: 'small', default: true, nodes: [{ kind: 'cc', key: 'desk', recipients: [] }] },
              ],
            },
          ],
        },
      ],
    },
    { kind: 'approval', key: 'final', assignees: [], operations: { rejectTargets: 'previous' } },
  ],
});
if (!definition) throw new Error('the fixture does not parse');

const task = (nodeKey: string, status: WorkflowTask['status'], assignee = 'lena', visit = 1): WorkflowTask => ({
  id: `${nodeKey}-${assignee}-${visit}-${status}`,
  instanceId: 'i',
  nodeKey,
  visit,
  assignee,
  owner: null,
  status,
  comment: null,
  readAt: null,
  decidedAt: status === 'Pending' ? null : '2026-01-01T00:00:00Z',
  decidedBy: status === 'Pending' ? null : assignee,
  createdAt: '2026-01-01T00:00:00Z',
});

function progress(status: InstanceStatus, states: Record<string, ProgressNode['state']>, tasks: WorkflowTask[] = []): InstanceProgress {
  const kinds: Record<string, string> = {
    intake: 'approval',
    checks: 'parallel',
    notify: 'cc',
    size: 'exclusive',
    finance: 'approval',
    desk: 'cc',
    final: 'approval',
  };
  return {
    instance: {
      id: 'i',
      definitionKey: 'engagement',
      definitionId: 'v',
      businessKey: 'm-1',
      initiator: 'ina',
      status,
      variables: {},
      priority: 0,
      version: 1,
      createdAt: '',
      updatedAt: '',
      endedAt: null,
    },
    returnedToInitiator: false,
    nodes: Object.entries(kinds).map(([key, kind]) => ({
      key,
      kind,
      name: null,
      state: states[key] ?? 'not-reached',
      tasks: tasks.filter((t) => t.nodeKey === key),
    })),
  };
}

describe('node states', () => {
  it('shows the waiting approval active with its assignees, the rest pending while the instance runs', () => {
    const statuses = nodeStatuses(definition, progress('Running', { intake: 'waiting' }, [task('intake', 'Pending')]), []);
    expect(statuses.get('intake')).toEqual({ state: 'active', detail: 'waiting for lena' });
    expect(statuses.get('finance')?.state).toBe('pending');
    expect(statuses.get('final')?.state).toBe('pending');
  });

  it('skips the exclusive branch that was not taken, also while the instance still runs', () => {
    const states = { intake: 'passed', checks: 'passed', notify: 'passed', size: 'passed', desk: 'passed', final: 'waiting' } as const;
    const statuses = nodeStatuses(definition, progress('Running', states, [task('intake', 'Approved'), task('final', 'Pending', 'otto')]), []);
    expect(statuses.get('finance')).toEqual({ state: 'skipped', detail: 'branch not taken' });
    expect(statuses.get('size')).toEqual({ state: 'done', detail: 'took small' });
    expect(statuses.get('intake')).toEqual({ state: 'done', detail: 'approved by lena' });
    expect(statuses.get('final')?.state).toBe('active');
  });

  it('reads a rejection from the history summary, and leaves nodes behind an ended instance skipped', () => {
    const statuses = nodeStatuses(definition, progress('Rejected', { intake: 'passed' }, [task('intake', 'Rejected')]), [
      { nodeKey: 'intake', visit: 1, outcome: 'Rejected', decidedBy: 'lena', decidedAt: null },
    ]);
    expect(statuses.get('intake')).toEqual({ state: 'rejected', detail: 'rejected by lena' });
    expect(statuses.get('checks')?.state).toBe('skipped');
    expect(endStatus(progress('Rejected', {}).instance).state).toBe('rejected');
  });

  it('judges a rejection from the tasks when there is no summary, and marks a node still waiting in a withdrawn instance cancelled', () => {
    expect(nodeStatuses(definition, progress('Rejected', { intake: 'passed' }, [task('intake', 'Rejected')]), undefined).get('intake')?.state).toBe('rejected');
    const withdrawn = nodeStatuses(definition, progress('Withdrawn', { intake: 'waiting' }, [task('intake', 'Cancelled')]), []);
    expect(withdrawn.get('intake')?.state).toBe('cancelled');
    expect(endStatus(progress('Withdrawn', {}).instance)).toEqual({ state: 'cancelled', detail: 'ended: withdrawn' });
  });
});

describe('definition model', () => {
  it('finds reject targets: `previous` is the nearest approval behind, out of the enclosing gateways', () => {
    expect(approvalsBehind(definition, 'finance')).toEqual(['intake']);
    expect(rejectTargets(definition, 'final')).toEqual(['intake']);
    expect(rejectTargets(definition, 'intake')).toEqual([]);
  });

  it('says a JSONLogic condition in a few words', () => {
    expect(describeCondition({ '>': [{ var: 'amount' }, 10000] })).toBe('amount > 10000');
    expect(describeCondition({ and: [{ '==': [{ var: 'type' }, 'litigation'] }, { '<': [1000, { var: 'amount' }, 5000] }] })).toBe(
      '(type == "litigation") and (1000 < amount < 5000)',
    );
  });
});

describe('graph layout', () => {
  const statuses = nodeStatuses(definition, progress('Running', { intake: 'waiting' }, [task('intake', 'Pending')]), []);
  const running = progress('Running', {});
  const layout = layoutGraph(definition, statuses, startStatus(running), endStatus(running.instance));
  const shape = (key: string) => {
    const found = layout.shapes.find((s) => s.key === key);
    if (!found) throw new Error(`no shape ${key}`);
    return found;
  };

  it('draws every node once, the start and end, and a join per gateway', () => {
    expect(layout.shapes.map((s) => s.key).sort()).toEqual(
      ['start', 'intake', 'checks', 'notify', 'size', 'finance', 'desk', 'size:join', 'checks:join', 'final', 'end'].sort(),
    );
  });

  it('lays a sequence top to bottom and branches side by side, without overlaps', () => {
    expect(shape('start').y).toBeLessThan(shape('intake').y);
    expect(shape('intake').y).toBeLessThan(shape('checks').y);
    expect(shape('notify').x + shape('notify').w).toBeLessThan(shape('finance').x);
    expect(shape('finance').x + shape('finance').w).toBeLessThan(shape('desk').x);
    expect(shape('finance').y).toBe(shape('desk').y);
    expect(shape('checks:join').y).toBeGreaterThan(shape('size:join').y);
    expect(shape('final').y).toBeGreaterThan(shape('checks:join').y);
    for (const a of layout.shapes) {
      for (const b of layout.shapes) {
        if (a === b) continue;
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        expect({ a: a.key, b: b.key, apart }).toEqual({ a: a.key, b: b.key, apart: true });
      }
    }
    for (const s of layout.shapes) expect(s.x + s.w).toBeLessThanOrEqual(layout.width);
  });

  it('ends every edge at the top centre of a shape, solid only where the flow went', () => {
    for (const edge of layout.edges) {
      const [x, y] = edge.points.at(-1) ?? [NaN, NaN];
      expect(layout.shapes.some((s) => Math.abs(s.x + s.w / 2 - x) < 0.01 && Math.abs(s.y - y) < 0.01)).toBe(true);
    }
    expect(layout.edges.filter((e) => e.taken)).toHaveLength(1); // start → intake
  });
});

import { DefinitionGraph } from './definition-graph';
import { compileDefinition } from './definition.validator';
import { decideApproval, readVariable, selectBranch } from './walker';

describe('decideApproval', () => {
  it.each([
    ['sequential', undefined, 3, ['approve', 'approve'], 'pending'],
    ['sequential', undefined, 3, ['approve', 'approve', 'approve'], 'approved'],
    ['sequential', undefined, 3, ['approve', 'reject'], 'rejected'],
    ['all', undefined, 2, ['approve', 'approve'], 'approved'],
    ['all', undefined, 2, ['reject'], 'rejected'],
    ['any', undefined, 5, ['reject'], 'rejected'],
    ['any', undefined, 5, ['approve'], 'approved'],
    ['any', undefined, 5, [], 'pending'],
    ['ratio', 50, 3, ['approve'], 'pending'],
    ['ratio', 50, 3, ['approve', 'approve'], 'approved'],
    ['ratio', 34, 3, ['approve'], 'pending'],
    ['ratio', 33, 3, ['approve'], 'approved'],
    ['ratio', 67, 3, ['reject'], 'rejected'],
    ['ratio', 66, 3, ['reject'], 'pending'],
    ['ratio', 100, 1, ['approve'], 'approved'],
    ['ratio', 1, 1, ['reject'], 'rejected'],
  ] as const)('%s %s%% of %i tasks, votes %j: %s', (mode, passPercent, tasks, votes, expected) => {
    expect(decideApproval({ mode, passPercent }, tasks, votes).decision).toBe(expected);
  });

  it('names the vote that decided; later votes do not count', () => {
    expect(decideApproval({ mode: 'any' }, 3, ['approve', 'reject', 'reject'])).toEqual({ decision: 'approved', decidingVote: 0 });
  });
});

describe('DefinitionGraph', () => {
  const compiled = compileDefinition({
    name: 'g',
    nodes: [
      { kind: 'approval', key: 'a1', assignees: [{ kind: 'initiator' }] },
      {
        kind: 'parallel',
        key: 'p',
        branches: [
          {
            nodes: [
              { kind: 'approval', key: 'b1', assignees: [{ kind: 'initiator' }] },
              { kind: 'cc', key: 'b2', recipients: [{ kind: 'initiator' }] },
            ],
          },
          { nodes: [{ kind: 'approval', key: 'c1', assignees: [{ kind: 'initiator' }] }] },
        ],
      },
      { kind: 'approval', key: 'z', assignees: [{ kind: 'initiator' }], operations: { rejectTargets: 'previous' } },
    ],
  });
  if (!compiled.ok) throw new Error('fixture');
  const graph = DefinitionGraph.of(compiled.definition);

  it('walks the block structure: next node, join at the end of a branch, completion at the end of the main sequence', () => {
    expect(graph.first()).toEqual({ kind: 'node', key: 'a1' });
    expect(graph.after('a1')).toEqual({ kind: 'node', key: 'p' });
    expect(graph.branchEntry('p', 1)).toEqual({ kind: 'node', key: 'c1' });
    expect(graph.after('b1')).toEqual({ kind: 'node', key: 'b2' });
    expect(graph.after('b2')).toEqual({ kind: 'join', gateway: 'p', branch: 0 });
    expect(graph.after('p')).toEqual({ kind: 'node', key: 'z' });
    expect(graph.after('z')).toEqual({ kind: 'complete' });
  });

  it('knows the approvals behind a node, nearest first, never inside a branch already closed', () => {
    expect(graph.approvalsBehind('b2')).toEqual(['b1', 'a1']);
    expect(graph.approvalsBehind('z')).toEqual(['a1']);
    expect(graph.rejectTargets(graph.node('z') as never)).toEqual(['a1']);
  });
});

describe('selectBranch and readVariable', () => {
  it('refuses to guess when no condition holds and there is no default', () => {
    const gateway = { kind: 'exclusive' as const, key: 'g', branches: [{ condition: { var: 'x' }, nodes: [] }] };
    expect(() => selectBranch(gateway, {})).toThrow(/no default branch/);
    expect(selectBranch(gateway, { x: true })).toEqual({ branch: 0, by: 'condition' });
  });

  it('reads own properties only', () => {
    expect(readVariable({ a: { b: 'x' } }, 'a.b')).toBe('x');
    expect(readVariable({ a: {} }, 'a.constructor')).toBeUndefined();
    expect(readVariable({}, 'toString')).toBeUndefined();
  });
});

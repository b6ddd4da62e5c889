import type { TaskRow } from '../runtime/runtime.repository';
import { ApprovalRule, nodeDecisions } from './node-decisions';

let clock = Date.UTC(2026, 0, 1);
function task(nodeKey: string, visit: number, seq: number, assignee: string, status: TaskRow['status'], extra: Partial<TaskRow> = {}): TaskRow {
  clock += 1000;
  const decided = status === 'Pending' ? null : new Date(clock);
  return {
    id: `${nodeKey}-${visit}-${seq}-${assignee}`,
    tenant_id: 't',
    instance_id: 'i',
    node_key: nodeKey,
    visit,
    seq,
    assignee,
    owner: null,
    status,
    comment: null,
    read_at: null,
    decided_at: decided,
    decided_by: status === 'Approved' || status === 'Rejected' || status === 'Transferred' || status === 'Delegated' ? assignee : null,
    created_at: new Date(clock - 500),
    ...extra,
  };
}

const rules: Record<string, ApprovalRule> = {
  board: { mode: 'all' },
  either: { mode: 'any' },
  seq: { mode: 'sequential' },
  third: { mode: 'ratio', passPercent: 60 },
};
const ruleOf = (key: string) => rules[key];

describe('nodeDecisions', () => {
  it('names the last vote of an all node as the decider, and the rejecter of a rejected one', () => {
    const decided = nodeDecisions(
      [
        task('board', 1, 0, 'anna', 'Approved'),
        task('board', 1, 1, 'ben', 'Approved'),
        task('board', 2, 0, 'anna', 'Rejected'),
        task('board', 2, 1, 'ben', 'Cancelled'),
      ],
      ruleOf,
      {},
    );
    expect(decided.map((d) => [d.nodeKey, d.visit, d.outcome, d.decidedBy, d.votes.length])).toEqual([
      ['board', 1, 'Approved', 'ben', 2],
      ['board', 2, 'Rejected', 'anna', 1],
    ]);
  });

  it('takes the seat list of a waiting visit: one approval of two is no decision yet', () => {
    const [open] = nodeDecisions([task('board', 1, 0, 'anna', 'Approved'), task('board', 1, 1, 'ben', 'Pending')], ruleOf, {
      board: { visit: 1, assignees: ['anna', 'ben'] },
    });
    expect(open).toMatchObject({ outcome: null, decidedBy: null, votes: [{ by: 'anna', decision: 'Approved' }] });
  });

  it('finds the deciding vote of a ratio node (60 % of 3: the second approval), not the last one cast', () => {
    const [ratio] = nodeDecisions(
      [task('third', 1, 0, 'a', 'Approved'), task('third', 1, 1, 'b', 'Approved'), task('third', 1, 2, 'c', 'Cancelled')],
      ruleOf,
      {},
    );
    expect(ratio).toMatchObject({ outcome: 'Approved', decidedBy: 'b' });
  });

  it('leaves a visit an operation ended without a decision, and does not count a delegate’s advice as a vote', () => {
    const [reset] = nodeDecisions(
      [
        task('seq', 1, 0, 'a', 'Approved'),
        task('seq', 1, 1, 'b', 'Delegated'),
        task('seq', 1, 1, 'd', 'Rejected', { owner: 'b' }),
        task('seq', 1, 1, 'b', 'Cancelled'),
      ],
      ruleOf,
      {},
    );
    expect(reset).toMatchObject({ outcome: null, decidedBy: null, votes: [{ by: 'a' }] });
  });

  it('credits a transfer’s successor: the transferred seat’s new holder decides an any node', () => {
    const [any] = nodeDecisions(
      [task('either', 1, 0, 'carl', 'Transferred'), task('either', 1, 0, 'dora', 'Approved'), task('either', 1, 1, 'eve', 'Cancelled')],
      ruleOf,
      {},
    );
    expect(any).toMatchObject({ outcome: 'Approved', decidedBy: 'dora' });
  });
});

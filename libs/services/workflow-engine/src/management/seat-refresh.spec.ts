import type { TaskRow } from '../runtime/runtime.repository';
import type { ParkedApproval } from '../runtime/runtime-walk';
import { planSeatRefresh } from './seat-refresh';

let clock = 0;
function task(seq: number, assignee: string, status: TaskRow['status'], extra: Partial<TaskRow> = {}): TaskRow {
  clock += 1;
  return {
    id: `t-${seq}-${assignee}-${status}`,
    tenant_id: 'default',
    instance_id: 'i',
    node_key: 'review',
    visit: 1,
    seq,
    assignee,
    owner: null,
    status,
    comment: null,
    read_at: null,
    decided_at: status === 'Pending' ? null : new Date(clock * 1000),
    decided_by: status === 'Pending' ? null : assignee,
    created_at: new Date(clock * 1000),
    ...extra,
  };
}
const parked = (mode: ParkedApproval['mode']['mode'], assignees: string[]): ParkedApproval => ({ visit: 1, assignees, mode: { mode } });

describe('planSeatRefresh', () => {
  it('removes a leaver’s open seat, keeps the votes, appends the newcomer and moves the later open seats up', () => {
    const tasks = [task(0, 'ann', 'Pending'), task(1, 'bob', 'Approved'), task(2, 'cyd', 'Pending')];
    const plan = planSeatRefresh(parked('all', ['ann', 'bob', 'cyd']), tasks, ['bob', 'cyd', 'dan']);
    expect(plan).toMatchObject({ seats: ['bob', 'cyd', 'dan'], added: ['dan'], removed: ['ann'], open: [2], votes: ['approve'] });
    expect(plan.cancel.map((t) => t.assignee)).toEqual(['ann']);
    // bob's vote keeps its row (seq 1); cyd's open task follows its seat from 2 to 1.
    expect(plan.moves).toEqual([{ taskId: tasks[2]!.id, seq: 1 }]);
    expect(plan.openSeats).toEqual([1, 2]);
  });

  it('never removes a voter, a transferred seat or a delegated one', () => {
    const tasks = [
      task(0, 'ann', 'Approved'),
      task(1, 'bob', 'Transferred'),
      task(1, 'tom', 'Pending'),
      task(2, 'cyd', 'Delegated'),
      task(2, 'del', 'Pending', { owner: 'cyd' }),
    ];
    const plan = planSeatRefresh(parked('all', ['ann', 'tom', 'cyd']), tasks, []);
    expect(plan).toMatchObject({ seats: ['ann', 'tom', 'cyd'], added: [], removed: [], cancel: [], moves: [] });
  });

  it('does not seat a delegate again who already holds an open task at the visit', () => {
    const tasks = [task(0, 'cyd', 'Delegated'), task(0, 'del', 'Pending', { owner: 'cyd' })];
    expect(planSeatRefresh(parked('any', ['cyd']), tasks, ['cyd', 'del']).added).toEqual([]);
  });

  it('on a sequential node: the open seat’s removal opens the next one; newcomers queue at the end; unopened leavers just leave', () => {
    const tasks = [task(0, 'ann', 'Approved'), task(1, 'bob', 'Pending')];
    const plan = planSeatRefresh(parked('sequential', ['ann', 'bob', 'cyd', 'dan']), tasks, ['ann', 'cyd', 'eve']);
    expect(plan).toMatchObject({ seats: ['ann', 'cyd', 'eve'], removed: ['bob', 'dan'], added: ['eve'], open: [1], openSeats: [1] });
    expect(plan.cancel.map((t) => t.assignee)).toEqual(['bob']);
  });

  it('leaves no open seat when every remaining seat has voted (the service refuses that plan)', () => {
    const tasks = [task(0, 'ann', 'Approved'), task(1, 'bob', 'Pending')];
    const plan = planSeatRefresh(parked('all', ['ann', 'bob']), tasks, ['ann']);
    expect(plan).toMatchObject({ seats: ['ann'], removed: ['bob'], openSeats: [] });
  });
});

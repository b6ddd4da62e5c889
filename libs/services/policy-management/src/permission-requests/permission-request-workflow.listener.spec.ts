import { outcomeOf } from './permission-request-workflow.listener';

const instanceId = '0d6f9c1a-3b8e-4c55-9a77-2f1e0c9b8a10';

describe('outcomeOf (what a workflow.instance.* event means for its permission request)', () => {
  it('started records the initiator; an approval names the voter who ended the instance', () => {
    expect(outcomeOf('workflow.instance.started', { instanceId, initiator: 'erin' })).toEqual({ kind: 'started', initiator: 'erin' });
    expect(outcomeOf('workflow.instance.completed', { instanceId, status: 'Approved', decidedBy: 'paula' })).toEqual({ kind: 'approved', by: 'paula' });
    expect(outcomeOf('workflow.instance.completed', { instanceId, status: 'Approved' })).toEqual({ kind: 'approved', by: null });
  });

  it('a rejection, a withdrawal, a termination and a cancellation reject, as whoever did it', () => {
    expect(outcomeOf('workflow.instance.completed', { instanceId, status: 'Rejected', decidedBy: 'admin' })).toEqual({
      kind: 'rejected',
      by: 'admin',
      note: `Rejected in workflow instance ${instanceId}.`,
    });
    const ends: Array<[string, string]> = [
      ['workflow.instance.withdrawn', 'Withdrawn'],
      ['workflow.instance.terminated', 'Terminated'],
      ['workflow.instance.cancelled', 'Cancelled'],
    ];
    for (const [type, to] of ends) {
      expect(outcomeOf(type, { instanceId, by: 'mia', to, reason: 'done' })).toEqual({
        kind: 'rejected',
        by: 'mia',
        note: `Workflow instance ${instanceId} ${to.toLowerCase()}: done`,
      });
    }
  });

  it('keeps a long reason within a decision note’s 1000 characters', () => {
    const outcome = outcomeOf('workflow.instance.withdrawn', { instanceId, by: 'erin', to: 'Withdrawn', reason: 'x'.repeat(2000) });
    expect(outcome.kind === 'rejected' && outcome.note.length).toBe(1000);
  });
});

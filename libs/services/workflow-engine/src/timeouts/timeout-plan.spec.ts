import { intervalOf, planOf } from './timeout-plan';

describe('planOf', () => {
  it('maps each action to the runtime path it takes', () => {
    expect(planOf({ after: 'P2D', action: 'remind' })).toEqual({ kind: 'remind' });
    expect(planOf({ after: 'P2D', action: 'auto-approve' })).toMatchObject({ kind: 'vote', decision: 'approve' });
    expect(planOf({ after: 7200, action: 'auto-reject' })).toMatchObject({ kind: 'vote', decision: 'reject', comment: expect.stringContaining('7200 s') });
    expect(planOf({ after: 'PT4H', action: 'transfer', transferTo: 'carl' })).toMatchObject({ kind: 'hand-over', candidates: ['carl'] });
  });

  it('escalates to the subjects resolved for it, in order, and to nobody when nothing resolved', () => {
    const escalate = { after: 'P1D', action: 'escalate' as const, escalateTo: { kind: 'role' as const, role: 'partners' } };
    expect(planOf(escalate, ['pia', 'paul'])).toMatchObject({ kind: 'hand-over', candidates: ['pia', 'paul'] });
    expect(planOf(escalate)).toMatchObject({ kind: 'hand-over', candidates: [] });
  });
});

describe('intervalOf', () => {
  it('gives PostgreSQL an ISO 8601 duration as written and seconds as PT{n}S', () => {
    expect(intervalOf('P1DT2H')).toBe('P1DT2H');
    expect(intervalOf(90)).toBe('PT90S');
  });
});

import { delegationExpiryProblem, delegationStatus, MAX_DELEGATION_SECONDS } from './delegation-window';

describe('delegation window', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('accepts a future expiry up to 30 days ahead, inclusive', () => {
    expect(delegationExpiryProblem(new Date(now.getTime() + 1000), now)).toBeNull();
    expect(delegationExpiryProblem(new Date(now.getTime() + MAX_DELEGATION_SECONDS * 1000), now)).toBeNull();
  });

  it('rejects now, the past, beyond 30 days and invalid dates', () => {
    expect(delegationExpiryProblem(now, now)).toMatch(/future/);
    expect(delegationExpiryProblem(new Date(now.getTime() - 1), now)).toMatch(/future/);
    expect(delegationExpiryProblem(new Date(now.getTime() + MAX_DELEGATION_SECONDS * 1000 + 1), now)).toMatch(/30 days/);
    expect(delegationExpiryProblem(new Date('nope'), now)).toMatch(/ISO/);
  });

  it('derives the status: revoked wins, then expiry (exclusive, like the decision core)', () => {
    expect(delegationStatus({ expiresAt: new Date(now.getTime() + 1), revokedAt: null }, now)).toBe('active');
    expect(delegationStatus({ expiresAt: now, revokedAt: null }, now)).toBe('expired');
    expect(delegationStatus({ expiresAt: new Date(now.getTime() + 1), revokedAt: now }, now)).toBe('revoked');
  });
});

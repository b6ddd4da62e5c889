import { effectiveRequestStatus, grantExpiry } from './permission-request-status';

describe('permission request status', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('reads an approved request whose grant ran out as expired, at the expiry instant itself', () => {
    expect(effectiveRequestStatus('approved', new Date(now.getTime() + 1), now)).toBe('approved');
    expect(effectiveRequestStatus('approved', now, now)).toBe('expired');
  });

  it('leaves every other status as stored', () => {
    expect(effectiveRequestStatus('pending', null, now)).toBe('pending');
    expect(effectiveRequestStatus('revoked', new Date(0), now)).toBe('revoked');
    expect(effectiveRequestStatus('rejected', null, now)).toBe('rejected');
  });

  it('computes an absolute expiry from the approval instant', () => {
    expect(grantExpiry(now, 60).toISOString()).toBe('2026-11-21T12:01:00.000Z');
  });
});

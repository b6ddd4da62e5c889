import { EventTypes } from '@lp/contracts';
import { MenuProjection, MenuProjectionCache, menuDropPlan } from './menu-projection.cache';

const A = EventTypes.authorization;
const projection = (codes: string[], validUntil: number | null = null, delegators: string[] = []): MenuProjection => ({
  codes,
  permissions: codes.map((code) => ({ code, sources: [{ kind: 'role', role: 'r' }] })),
  disabledFeatures: [],
  delegators,
  menu: { modules: [] },
  validUntil,
});

describe('menuDropPlan', () => {
  it('drops a tenant for a feature override, every tenant for a global default', () => {
    expect(menuDropPlan(A.featureChanged, { code: 'chat', scope: 'tenant' }, 't1')).toEqual({ tenantId: 't1', wholeTenant: true });
    expect(menuDropPlan(A.featureChanged, { code: 'chat', scope: 'global' }, 't1')).toEqual({ everyTenant: true });
    expect(menuDropPlan(A.featureChanged, { code: 'chat' }, null)).toEqual({ everyTenant: true });
  });

  it("drops a delegate's view when its delegator's bindings change", () => {
    const cache = new MenuProjectionCache();
    cache.set('t1', 'bob', projection(['cases.case.view'], null, ['alice']), cache.ticket());
    cache.set('t1', 'carol', projection(['cases.case.view']), cache.ticket());
    cache.set('t2', 'bob', projection(['cases.case.view'], null, ['alice']), cache.ticket());
    cache.forget(A.userRoleRevoked, { tenantId: 't1', subject: 'alice' });
    expect(cache.get('t1', 'bob')).toBeUndefined();
    expect(cache.get('t1', 'carol')).toBeDefined();
    expect(cache.get('t2', 'bob')).toBeDefined();
  });

  it('drops the target subject of user-role events, never anyone else', () => {
    expect(menuDropPlan(A.userRoleAssigned, { tenantId: 't1', subject: 'bob', roleId: 'r', roleName: 'n' })).toEqual({ tenantId: 't1', subjects: ['bob'] });
    expect(menuDropPlan(A.temporaryGrantChanged, { tenantId: 't1', subject: 'bob' })).toEqual({ tenantId: 't1', subjects: ['bob'] });
    expect(menuDropPlan(A.delegationChanged, { tenantId: 't1', subjects: ['a', 'b', 'a'] })).toEqual({ tenantId: 't1', subjects: ['a', 'b'] });
  });

  it('drops the whole tenant for role and role-permission events, or when no subject is named', () => {
    for (const type of [A.roleCreated, A.roleUpdated, A.roleDeleted, A.rolePermissionChanged]) {
      expect(menuDropPlan(type, { tenantId: 't1', roleId: 'r' })).toEqual({ tenantId: 't1', wholeTenant: true });
    }
    expect(menuDropPlan(A.userRoleRevoked, { tenantId: 't1' })).toEqual({ tenantId: 't1', wholeTenant: true });
  });

  it('falls back to the envelope tenant and ignores events that change no menu', () => {
    expect(menuDropPlan(A.userRoleAssigned, { subject: 'bob' }, 't2')).toEqual({ tenantId: 't2', subjects: ['bob'] });
    expect(menuDropPlan(A.userRoleAssigned, { subject: 'bob' }, null)).toBeNull();
    expect(menuDropPlan(A.abacRuleChanged, { tenantId: 't1' })).toBeNull();
    // Features now show in /me/permissions (disabledFeatures): a feature change is a menu change.
    expect(menuDropPlan(A.featureChanged, { tenantId: 't1', scope: 'tenant' })).toEqual({ tenantId: 't1', wholeTenant: true });
  });
});

describe('MenuProjectionCache', () => {
  it('forgets only the named subject of the named tenant', () => {
    const cache = new MenuProjectionCache();
    cache.set('t1', 'bob', projection(['a']), cache.ticket());
    cache.set('t1', 'ann', projection(['b']), cache.ticket());
    cache.set('t2', 'bob', projection(['c']), cache.ticket());
    cache.forget(A.userRoleRevoked, { tenantId: 't1', subject: 'bob' });
    expect(cache.get('t1', 'bob')).toBeUndefined();
    expect(cache.get('t1', 'ann')?.codes).toEqual(['b']);
    expect(cache.get('t2', 'bob')?.codes).toEqual(['c']);
  });

  it('forgets a whole tenant on a role event', () => {
    const cache = new MenuProjectionCache();
    cache.set('t1', 'bob', projection(['a']), cache.ticket());
    cache.set('t1', 'ann', projection(['b']), cache.ticket());
    cache.set('t2', 'bob', projection(['c']), cache.ticket());
    cache.forget(A.rolePermissionChanged, { tenantId: 't1' });
    expect(cache.get('t1', 'bob')).toBeUndefined();
    expect(cache.get('t1', 'ann')).toBeUndefined();
    expect(cache.get('t2', 'bob')?.codes).toEqual(['c']);
  });

  it('does not store a projection read before a drop', () => {
    const cache = new MenuProjectionCache();
    const ticket = cache.ticket();
    cache.forget(A.userRoleAssigned, { tenantId: 't1', subject: 'bob' });
    cache.set('t1', 'bob', projection(['stale']), ticket);
    expect(cache.get('t1', 'bob')).toBeUndefined();
  });

  it('expires a projection at its earliest temporary-grant expiry', () => {
    const cache = new MenuProjectionCache();
    cache.set('t1', 'bob', projection(['a'], 1_000), cache.ticket());
    expect(cache.get('t1', 'bob', 999)?.codes).toEqual(['a']);
    expect(cache.get('t1', 'bob', 1_000)).toBeUndefined();
  });
});

import { EventTypes } from '@lp/contracts';
import { InMemoryKeyValueCache, InMemoryRevisionCounters } from '@lp/platform/cache';
import { createEventEnvelope } from '@lp/platform/messaging';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { CachedRelationsReader } from './cached-relations.reader';
import { PolicyInvalidation } from './policy-invalidation';
import { ScopeFactsCache } from './scope-facts.cache';

/** Spec §1, Cache behavior 4: DataScope and ReBAC caches, each refreshed only by its own invalidation. */
describe('DataScope and ReBAC caches', () => {
  function setup() {
    const facts = new InMemoryPolicyFacts();
    facts.defineRole('t1', 'clerk', 'office', ['cases.case.view']);
    facts.bindRole('t1', 'alice', 'clerk');
    facts.setOffices('t1', 'alice', ['paris']);
    facts.addRelation('t1', { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' });
    const revisions = new InMemoryRevisionCounters();
    const cache = new InMemoryKeyValueCache();
    const rebac = new CachedRelationsReader(facts, cache, revisions, 60_000);
    const scope = new ScopeFactsCache(rebac, cache, revisions, 60_000);
    const invalidation = new PolicyInvalidation(revisions);
    const event = (type: string, payload: Record<string, unknown> = {}) => invalidation.handle(createEventEnvelope(type, payload, { tenantId: 't1' }));
    return { facts, rebac, scope, event };
  }

  it('DataScope facts: cached, refreshed by their own events, not by a permission-cache invalidation', async () => {
    const { facts, scope, event } = setup();
    expect((await scope.permissionsOfSubject('t1', 'alice')).officeIds).toEqual(['paris']);
    facts.setOffices('t1', 'alice', ['lyon']);
    expect((await scope.permissionsOfSubject('t1', 'alice')).officeIds).toEqual(['paris']);

    await event(EventTypes.authorization.abacRuleChanged); // clears decisions of the tenant only
    expect((await scope.permissionsOfSubject('t1', 'alice')).officeIds).toEqual(['paris']);

    await event(EventTypes.authorization.subjectOfficeChanged, { subject: 'alice' });
    expect((await scope.permissionsOfSubject('t1', 'alice')).officeIds).toEqual(['lyon']);
  });

  it('tenant status: cached under the tenant policy revision, read again once a status change bumps it', async () => {
    const { facts, rebac, scope, event } = setup();
    expect(await rebac.tenantSuspended('t1')).toBe(false);
    facts.setTenantSuspended('t1', true);
    expect(await rebac.tenantSuspended('t1')).toBe(false);
    expect(facts.tenantStatusReads).toBe(1);
    await event(EventTypes.authorization.tenantStatusChanged, { tenantId: 't1', status: 'suspended', previous: 'active' });
    expect(await rebac.tenantSuspended('t1')).toBe(true);
    // The DataScope wrapper forwards the fact (a reader that drops it would read as "never suspended").
    expect(await scope.tenantSuspended('t1')).toBe(true);
    facts.setTenantSuspended('t1', false);
    await event(EventTypes.authorization.tenantStatusChanged, { tenantId: 't1', status: 'active', previous: 'suspended' });
    expect(await rebac.tenantSuspended('t1')).toBe(false);
  });

  it('tenant status: a store failure rejects (the engine fails closed) and is not cached', async () => {
    const { facts, rebac } = setup();
    facts.failTenantStatus();
    await expect(rebac.tenantSuspended('t1')).rejects.toThrow('unavailable');
    facts.restoreTenantStatus();
    expect(await rebac.tenantSuspended('t1')).toBe(false);
  });

  it('ReBAC relations: cached, refreshed by relation events, not by a permission-cache invalidation', async () => {
    const { facts, rebac, event } = setup();
    expect(await rebac.relations('t1', 'alice', 'case', 'c-1')).toHaveLength(1);
    facts.removeRelation('t1', { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' });
    await event(EventTypes.authorization.abacRuleChanged);
    await event(EventTypes.authorization.rolePermissionChanged);
    await event(EventTypes.authorization.temporaryGrantChanged, { subject: 'alice' });
    await event(EventTypes.authorization.delegationChanged, { subject: 'alice' });
    expect(await rebac.relations('t1', 'alice', 'case', 'c-1')).toHaveLength(1);
    await event(EventTypes.authorization.relationChanged, { subject: 'alice' });
    expect(await rebac.relations('t1', 'alice', 'case', 'c-1')).toEqual([]);
  });

  // A share with a role reaches every holder of the role: the relations a subject has change with
  // its role bindings, and with a rename or deletion of the role, though no relation row changes.
  it.each([
    ['the subject is assigned a role', EventTypes.authorization.userRoleAssigned, { subject: 'alice' }],
    ['the subject loses a role', EventTypes.authorization.userRoleRevoked, { subject: 'alice' }],
    ['a role is renamed', EventTypes.authorization.roleUpdated, {}],
    ['a role is deleted', EventTypes.authorization.roleDeleted, {}],
  ])('ReBAC relations of a subject are read again when %s', async (_when, type, payload) => {
    const { facts, rebac, event } = setup();
    const viaRole = { subject: 'alice', resourceType: 'case', resourceId: 'c-9', relation: 'member' } as const;
    expect(await rebac.relations('t1', 'alice', 'case', 'c-9')).toEqual([]);
    expect(await rebac.relations('t1', 'bob', 'case', 'c-9')).toEqual([]);
    facts.addRelation('t1', viaRole); // what the role share now gives alice
    facts.addRelation('t1', { ...viaRole, subject: 'bob' });
    expect(await rebac.relations('t1', 'alice', 'case', 'c-9')).toEqual([]); // still cached
    await event(type, payload);
    expect(await rebac.relations('t1', 'alice', 'case', 'c-9')).toEqual([viaRole]);
    // A subject event reaches only that subject's entries; a role event the whole tenant's.
    const bobSees = await rebac.relations('t1', 'bob', 'case', 'c-9');
    expect(bobSees).toHaveLength('subject' in payload ? 0 : 1);
  });

  it("one subject's role change leaves another tenant's same subject cached", async () => {
    const { facts, rebac, event } = setup();
    facts.addRelation('t2', { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' });
    expect(await rebac.relations('t2', 'alice', 'case', 'c-1')).toHaveLength(1);
    facts.removeRelation('t2', { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' });
    await event(EventTypes.authorization.userRoleRevoked, { subject: 'alice' }); // tenant t1
    expect(await rebac.relations('t2', 'alice', 'case', 'c-1')).toHaveLength(1);
  });

  it('keeps grant expiries as instants through the cache, so an expired grant is never extended', async () => {
    const { facts, scope } = setup();
    const expiresAt = new Date(Date.now() + 60_000);
    facts.grantTemporary('t1', 'alice', { grantId: 'g1', permissions: ['cases.case.update'], expiresAt });
    await scope.permissionsOfSubject('t1', 'alice');
    const cached = await scope.permissionsOfSubject('t1', 'alice');
    expect(cached.temporaryGrants[0]!.expiresAt).toBeInstanceOf(Date);
    expect(cached.temporaryGrants[0]!.expiresAt.getTime()).toBe(expiresAt.getTime());
  });

  it('fails closed when the relation store fails: the error is not swallowed by the cache', async () => {
    const { facts, rebac } = setup();
    facts.failStore('relations');
    await expect(rebac.relations('t1', 'alice', 'case', 'c-2')).rejects.toThrow();
  });
});

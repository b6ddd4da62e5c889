import { Logger } from '@nestjs/common';
import { EventEnvelope, EventTypes } from '@lp/contracts';
import { CacheUnavailableError, InMemoryRevisionCounters } from '@lp/platform/cache';
import { createEventEnvelope } from '@lp/platform/messaging';
import { DecisionRevisionKeys as K } from './decision-revision-keys';
import { invalidationPlan, PolicyInvalidation } from './policy-invalidation';

const A = EventTypes.authorization;

function event(type: string, tenantId: string | null, payload: unknown = {}): EventEnvelope {
  return createEventEnvelope(type, payload, { tenantId });
}

describe('invalidationPlan', () => {
  it('bumps nothing for a role created: it holds no permission and nobody holds it yet', () => {
    expect(invalidationPlan(event(A.roleCreated, 't1', { roleName: 'clerk' }))).toEqual({
      ignored: expect.stringContaining('changes no cached decision fact'),
    });
  });

  it.each([
    [A.roleUpdated, 't1', {}, [K.tenantPolicy('t1'), K.dataScopeTenant('t1'), K.rebac('t1')]],
    [A.roleDeleted, 't1', {}, [K.tenantPolicy('t1'), K.dataScopeTenant('t1'), K.rebac('t1')]],
    [A.rolePermissionChanged, 't1', {}, [K.tenantPolicy('t1'), K.dataScopeTenant('t1')]],
    [A.abacRuleChanged, 't1', {}, [K.tenantPolicy('t1')]],
    [A.abacRuleChanged, 't1', { tenantId: 't2' }, [K.tenantPolicy('t2')]],
    [A.abacRuleChanged, null, { tenantId: 't2' }, [K.tenantPolicy('t2')]],
    // A suspension or reactivation changes every decision of the tenant (and its cached status).
    [A.tenantStatusChanged, 't1', { tenantId: 't1', status: 'suspended', previous: 'active' }, [K.tenantPolicy('t1')]],
    [A.tenantStatusChanged, null, { tenantId: 't2', status: 'active', previous: 'suspended' }, [K.tenantPolicy('t2')]],
    [A.featureChanged, null, { scope: 'global' }, [K.featureGlobal]],
    [A.featureChanged, 't1', { scope: 'global' }, [K.featureGlobal]],
    [A.featureChanged, 't1', { scope: 'tenant' }, [K.featureTenant('t1')]],
    [A.featureChanged, 't1', {}, [K.featureTenant('t1')]],
    [A.featureChanged, null, {}, [K.featureGlobal]],
    [A.featureChanged, null, { scope: 'tenant' }, [K.featureGlobal]],
    [A.featureChanged, 't1', { scope: 'galaxy' }, [K.featureGlobal]],
    [A.userRoleAssigned, 't1', { subject: 'bob', actor: 'admin' }, [K.subject('t1', 'bob'), K.dataScopeSubject('t1', 'bob'), K.rebacSubject('t1', 'bob')]],
    [A.userRoleRevoked, 't1', { userId: 'bob', actor: 'admin' }, [K.subject('t1', 'bob'), K.dataScopeSubject('t1', 'bob'), K.rebacSubject('t1', 'bob')]],
    [
      A.userRoleAssigned,
      't1',
      { subjects: ['bob', 'carol'], subject: 'bob' },
      [
        K.subject('t1', 'bob'),
        K.dataScopeSubject('t1', 'bob'),
        K.rebacSubject('t1', 'bob'),
        K.subject('t1', 'carol'),
        K.dataScopeSubject('t1', 'carol'),
        K.rebacSubject('t1', 'carol'),
      ],
    ],
    [A.userRoleAssigned, 't1', {}, [K.tenantPolicy('t1'), K.dataScopeTenant('t1'), K.rebac('t1')]],
    [A.delegationChanged, 't1', { subject: 'alice', actor: 'bob' }, [K.subject('t1', 'alice'), K.dataScopeSubject('t1', 'alice')]],
    [A.temporaryGrantChanged, 't1', { subject: 'alice' }, [K.subject('t1', 'alice'), K.dataScopeSubject('t1', 'alice')]],
    [A.temporaryGrantChanged, 't1', 'not an object', [K.tenantPolicy('t1'), K.dataScopeTenant('t1')]],
    [A.relationChanged, 't1', { subject: 'alice' }, [K.rebac('t1'), K.dataScopeTenant('t1')]],
  ])('%s (tenant %s, payload %j) bumps %j', (type, tenantId, payload, names) => {
    expect(invalidationPlan(event(type, tenantId, payload))).toEqual({ names });
  });

  it('never bumps the actor of a user-role change', () => {
    const plan = invalidationPlan(event(A.userRoleAssigned, 't1', { subject: 'bob', actor: 'alice' }));
    expect(JSON.stringify(plan)).not.toContain('alice');
  });

  it.each([
    ['an unknown authorization event', event('authorization.field-policy.changed', 't1')],
    ['a business event', event('ticket.created', 't1', { subject: 'alice' })],
  ])('ignores %s', (_name, envelope) => {
    expect(invalidationPlan(envelope)).toEqual({ ignored: 'event type changes no cached decision fact' });
  });

  it.each([A.roleUpdated, A.abacRuleChanged, A.userRoleAssigned, A.relationChanged, A.tenantStatusChanged])('ignores %s without a tenant', (type) => {
    expect(invalidationPlan(event(type, null, { subject: 'bob' }))).toEqual({ ignored: 'tenant event without a tenant' });
  });
});

describe('PolicyInvalidation', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('bumps each counter once and reports the new revisions', async () => {
    const revisions = new InMemoryRevisionCounters();
    await revisions.bump(K.subject('t1', 'bob'));
    const invalidation = new PolicyInvalidation(revisions);
    const envelope = event(A.userRoleAssigned, 't1', { subject: 'bob', subjects: ['bob'] });

    await expect(invalidation.handle(envelope)).resolves.toEqual({
      eventId: envelope.eventId,
      eventType: A.userRoleAssigned,
      bumped: [
        { name: K.subject('t1', 'bob'), revision: 2 },
        { name: K.dataScopeSubject('t1', 'bob'), revision: 1 },
        { name: K.rebacSubject('t1', 'bob'), revision: 1 },
      ],
    });
  });

  it('reports an ignored event and bumps nothing', async () => {
    const revisions = new InMemoryRevisionCounters();
    const bump = jest.spyOn(revisions, 'bump');
    const result = await new PolicyInvalidation(revisions).handle(event(A.roleUpdated, null));
    expect(result).toEqual(expect.objectContaining({ bumped: [], ignored: 'tenant event without a tenant' }));
    expect(bump).not.toHaveBeenCalled();
  });

  it('rejects when a counter cannot be bumped, so the bus redelivers the event', async () => {
    const revisions = new InMemoryRevisionCounters();
    jest.spyOn(revisions, 'bump').mockRejectedValue(new CacheUnavailableError('Redis: connection closed'));
    await expect(new PolicyInvalidation(revisions).handle(event(A.roleUpdated, 't1'))).rejects.toThrow(CacheUnavailableError);
  });
});

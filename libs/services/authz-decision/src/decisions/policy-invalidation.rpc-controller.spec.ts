import { EventTypes, TrustedCaller } from '@lp/contracts';
import { InMemoryRevisionCounters } from '@lp/platform/cache';
import { createEventEnvelope } from '@lp/platform/messaging';
import { DecisionRevisionKeys, PolicyInvalidation } from '../cache';
import { PolicyInvalidationRpcController } from './policy-invalidation.rpc-controller';

describe('PolicyInvalidationRpcController (authz.invalidate)', () => {
  const caller: TrustedCaller = { kind: 'user', subject: 'admin', tenantId: 'acme', scopes: [], claimsDigest: 'x' };
  let revisions: InMemoryRevisionCounters;
  let controller: PolicyInvalidationRpcController;

  beforeEach(() => {
    revisions = new InMemoryRevisionCounters();
    controller = new PolicyInvalidationRpcController(new PolicyInvalidation(revisions));
  });

  it('bumps the revisions the committed change names, in order', async () => {
    const events = [createEventEnvelope(EventTypes.authorization.userRoleRevoked, { tenantId: 'acme', subject: 'bob' }, { tenantId: 'acme' })];
    const [result] = await controller.invalidate({ caller, payload: { events } });
    expect(result.bumped.map((b) => b.name)).toContain(DecisionRevisionKeys.subject('acme', 'bob'));
    expect((await revisions.read([DecisionRevisionKeys.subject('acme', 'bob')]))[0]).toBe(1);
  });

  it.each([
    ['no events', { events: [] }],
    ['not a list', { events: 'x' }],
    ['more than 100', { events: Array.from({ length: 101 }, () => createEventEnvelope(EventTypes.authorization.roleCreated, {}, { tenantId: 'acme' })) }],
    ['a non-authorization event', { events: [createEventEnvelope('ticket.created', {}, { tenantId: 'acme' })] }],
  ])('refuses %s with Validation.Failed and bumps nothing', async (_what, payload) => {
    await expect(controller.invalidate({ caller, payload: payload as never })).rejects.toMatchObject({ code: 'Validation.Failed' });
    expect((await revisions.read([DecisionRevisionKeys.tenantPolicy('acme')]))[0]).toBe(0);
  });
});

import { AuthzRpc, EventTypes, parseMessage, TrustedCaller, ValidationError } from '@lp/contracts';
import { InMemoryRevisionCounters } from '@lp/platform/cache';
import { createEventEnvelope } from '@lp/platform/messaging';
import { DecisionRevisionKeys } from './decision-revision-keys';
import { PolicyInvalidation } from './policy-invalidation';
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
    expect(result!.bumped.map((b) => b.name)).toContain(DecisionRevisionKeys.subject('acme', 'bob'));
    expect((await revisions.read([DecisionRevisionKeys.subject('acme', 'bob')])).values[0]).toBe(1);
  });

  it.each([
    ['no events', { events: [] }],
    ['not a list', { events: 'x' }],
    ['more than 100', { events: Array.from({ length: 101 }, () => createEventEnvelope(EventTypes.authorization.roleCreated, {}, { tenantId: 'acme' })) }],
    ['a non-authorization event', { events: [createEventEnvelope('ticket.created', {}, { tenantId: 'acme' })] }],
  ])('its contract refuses %s with Validation.Failed, before the handler', (_what, payload) => {
    expect(() => parseMessage(AuthzRpc.invalidate.schema, { caller, payload })).toThrow(expect.objectContaining({ code: 'Validation.Failed' }));
  });

  it('its contract names the field of the payload that is wrong', () => {
    const bad = { events: [{ ...createEventEnvelope(EventTypes.authorization.roleCreated, {}, { tenantId: 'acme' }), eventType: 'ticket.created' }] };
    try {
      parseMessage(AuthzRpc.invalidate.schema, { caller, payload: bad });
      throw new Error('accepted');
    } catch (error) {
      expect((error as ValidationError).errors).toEqual({ 'events[0].eventType': ['an authorization.* event envelope is required'] });
    }
  });
});

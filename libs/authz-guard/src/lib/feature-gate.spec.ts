import { EventEnvelope, EventFamily, FeatureChangedPayload, receiveEvent, TrustedCaller } from '@lp/contracts';
import { EventBus, RpcClient, RpcRemoteError, RpcTimeoutError } from '@lp/platform/messaging';
import { FeatureGate } from './feature-gate';

const caller = (tenantId: string): TrustedCaller => ({ kind: 'user', subject: 'ann', tenantId, scopes: [], claimsDigest: 'd' });

/** authz-decision's answers by tenant, counted; `hold` keeps the next answer until released. */
function fakeDecisionService(states: Record<string, boolean>) {
  const asked: string[] = [];
  let held: (() => void) | undefined;
  let holdNext = false;
  const rpc = {
    call: async (_contract: unknown, message: { caller: TrustedCaller; payload: { featureCode: string } }) => {
      asked.push(message.caller.tenantId);
      // Read when asked: a held answer is the state from before anything that happens meanwhile.
      const state = states[message.caller.tenantId];
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((resolve) => (held = resolve));
      }
      if (state === undefined) throw new RpcTimeoutError('authz.feature.status', 100);
      return { tenantId: message.caller.tenantId, featureCode: message.payload.featureCode, enabled: state, defined: true };
    },
  };
  return { rpc: rpc as unknown as RpcClient, asked, hold: () => (holdNext = true), release: () => held?.() };
}

function fakeBus() {
  let deliver: ((envelope: EventEnvelope) => Promise<void>) | undefined;
  const bus = {
    subscribeTo: async (family: EventFamily, _options: unknown, handler: (event: unknown) => Promise<void>) => {
      deliver = (envelope) => handler(receiveEvent(family, envelope));
      return { unsubscribe: async () => undefined };
    },
  };
  const changed = (payload: FeatureChangedPayload) =>
    deliver!({
      eventId: `e-${Math.random()}`,
      eventType: 'authorization.feature.changed',
      version: 1,
      tenantId: payload.tenantId,
      occurredAt: new Date().toISOString(),
      correlationId: null,
      payload,
    });
  return { bus: bus as unknown as EventBus, changed, subscribed: () => deliver !== undefined };
}

describe('FeatureGate', () => {
  const options = { decisionTimeoutMs: 100, service: 'test' };

  it('subscribes before it caches, then answers from its cache per tenant', async () => {
    const authz = fakeDecisionService({ acme: true, globex: false });
    const events = fakeBus();
    const gate = new FeatureGate(authz.rpc, events.bus, options);
    expect(events.subscribed()).toBe(false);
    expect(await gate.isEnabled(caller('acme'), 'workflow.runtime')).toBe(true);
    expect(events.subscribed()).toBe(true);
    expect(await gate.isEnabled(caller('acme'), 'workflow.runtime')).toBe(true);
    expect(await gate.isEnabled(caller('globex'), 'workflow.runtime')).toBe(false);
    expect(authz.asked).toEqual(['acme', 'globex']);
    await expect(gate.require(caller('globex'), 'workflow.runtime')).rejects.toMatchObject({ code: 'Feature.Disabled', status: 403 });
  });

  it("a tenant override event drops that tenant's answer only; a global default event drops the feature everywhere", async () => {
    const states = { acme: true, globex: true };
    const authz = fakeDecisionService(states);
    const events = fakeBus();
    const gate = new FeatureGate(authz.rpc, events.bus, options);
    await gate.isEnabled(caller('acme'), 'workflow.runtime');
    await gate.isEnabled(caller('globex'), 'workflow.runtime');
    await gate.isEnabled(caller('acme'), 'chat');

    states.acme = false;
    await events.changed({ featureCode: 'workflow.runtime', scope: 'tenant', tenantId: 'acme', enabled: false, previous: null });
    expect(await gate.isEnabled(caller('acme'), 'workflow.runtime')).toBe(false);
    expect(await gate.isEnabled(caller('globex'), 'workflow.runtime')).toBe(true);
    expect(authz.asked).toEqual(['acme', 'globex', 'acme', 'acme']);

    states.globex = false;
    await events.changed({ featureCode: 'workflow.runtime', scope: 'global', tenantId: null, enabled: false, previous: true });
    expect(await gate.isEnabled(caller('globex'), 'workflow.runtime')).toBe(false);
    await gate.isEnabled(caller('acme'), 'chat'); // another feature: still cached
    expect(authz.asked).toEqual(['acme', 'globex', 'acme', 'acme', 'globex']);
  });

  it('does not keep an answer fetched while an event for it arrived', async () => {
    const states = { acme: true };
    const authz = fakeDecisionService(states);
    const events = fakeBus();
    const gate = new FeatureGate(authz.rpc, events.bus, options);
    await gate.isEnabled(caller('other'), 'x').catch(() => undefined); // subscribes
    authz.hold();
    const inFlight = gate.isEnabled(caller('acme'), 'workflow.runtime');
    await Promise.resolve();
    states.acme = false;
    await events.changed({ featureCode: 'workflow.runtime', scope: 'tenant', tenantId: 'acme', enabled: false, previous: null });
    authz.release();
    expect(await inFlight).toBe(true); // the answer from before the change, for the call that asked before it
    expect(await gate.isEnabled(caller('acme'), 'workflow.runtime')).toBe(false); // not cached: asked again
    expect(authz.asked.filter((t) => t === 'acme')).toHaveLength(2);
  });

  it('fails closed with 503 while it cannot subscribe to feature changes, and subscribes on a later call', async () => {
    const authz = fakeDecisionService({ acme: true });
    const events = fakeBus();
    let brokerDown = true;
    const flaky = {
      subscribeTo: (...args: Parameters<EventBus['subscribeTo']>) => (brokerDown ? Promise.reject(new Error('broker down')) : events.bus.subscribeTo(...args)),
    } as unknown as EventBus;
    const gate = new FeatureGate(authz.rpc, flaky, options);
    await expect(gate.isEnabled(caller('acme'), 'workflow.runtime')).rejects.toMatchObject({ code: 'Authorization.Unavailable', status: 503 });
    expect(authz.asked).toEqual([]);
    brokerDown = false;
    expect(await gate.isEnabled(caller('acme'), 'workflow.runtime')).toBe(true);
    expect(events.subscribed()).toBe(true);
  });

  it('fails closed with 503 when authz-decision does not answer, and passes a refusal through', async () => {
    const authz = fakeDecisionService({});
    const gate = new FeatureGate(authz.rpc, fakeBus().bus, options);
    await expect(gate.require(caller('nowhere'), 'workflow.runtime')).rejects.toMatchObject({ code: 'Authorization.Unavailable', status: 503 });

    const refusing = { call: async () => Promise.reject(new RpcRemoteError('authz.feature.status', { status: 400, code: 'Validation.Failed' } as never)) };
    const strict = new FeatureGate(refusing as unknown as RpcClient, fakeBus().bus, options);
    await expect(strict.isEnabled(caller('acme'), 'workflow.runtime')).rejects.toBeInstanceOf(RpcRemoteError);
  });
});

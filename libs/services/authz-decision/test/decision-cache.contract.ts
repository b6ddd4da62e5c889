import { Logger } from '@nestjs/common';
import { AuthorizationAction, ValidDecisionRequest, DecisionResult, EventTypes } from '@lp/contracts';
import type { CacheAdapters } from '@lp/platform/cache';
import { createEventEnvelope } from '@lp/platform/messaging';
import { setTimeout as sleep } from 'node:timers/promises';
import { delegated, manualClock, NOW, request, user } from './decision.fixtures';
import { cachedDecisionResult, DecisionCache, DecisionCacheLookup } from '../src/cache/decision-cache';
import { decisionCacheKey } from '../src/cache/decision-cache-key';
import { DecisionCacheStamp, DecisionRevisionKeys as K, decisionRevisionNames, decisionRevisionValues } from '../src/cache/decision-revision-keys';
import { PolicyInvalidation } from '../src/cache/policy-invalidation';

const TTL_MS = 60_000;
const A = EventTypes.authorization;

export function permit(extra: Partial<DecisionResult> = {}): DecisionResult {
  return {
    outcome: 'Permit',
    permitted: true,
    decisionId: 'computed-decision-id',
    evaluations: [
      { evaluator: 'RBAC', verdict: 'Allow', reason: 'role case-worker' },
      { evaluator: 'ABAC', verdict: 'Neutral', reason: 'no rule matched' },
    ],
    obligations: ['mask:fee'],
    dataScope: { kind: 'own', tenantId: 't1', subject: 'alice' },
    cached: false,
    ...extra,
  };
}

function view(subject: string, tenantId = 't1'): ValidDecisionRequest {
  return request(user(subject, { tenantId }), AuthorizationAction.View, { resourceId: 'case-1', status: 'open', amount: 10 });
}

/**
 * The decision cache's behaviour over one pair of cache adapters (in-memory in the unit spec,
 * Redis in the integration spec). `open()` returns a fresh pair in its own key space; the caller
 * closes what it opened.
 */
export function decisionCacheContract(open: () => CacheAdapters): void {
  let adapters: CacheAdapters;
  let clock: ReturnType<typeof manualClock>;
  let cache: DecisionCache;
  let invalidation: PolicyInvalidation;

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    adapters = open();
    clock = manualClock(NOW);
    cache = new DecisionCache(adapters.cache, adapters.revisions, { ttlMs: TTL_MS, clock });
    invalidation = new PolicyInvalidation(adapters.revisions);
  });

  afterEach(() => jest.restoreAllMocks());

  /** Looks up, and on a miss stores `result` under the revisions read: the decision path. */
  async function decideThrough(req: ValidDecisionRequest, result: DecisionResult = permit(), validUntil?: string): Promise<DecisionCacheLookup> {
    const lookup = await cache.lookup(req);
    if (lookup.status === 'miss') await cache.store(req, lookup, result, validUntil);
    return lookup;
  }

  async function status(req: ValidDecisionRequest): Promise<DecisionCacheLookup['status']> {
    return (await cache.lookup(req)).status;
  }

  it('never serves an entry stamped under another epoch of the counters, whatever their values (issue 31: a Redis restart)', async () => {
    const req = view('alice');
    const stored = await decideThrough(req);
    if (stored.status !== 'miss') throw new Error('expected a miss');
    const names = decisionRevisionNames(req.caller);
    const sameNumbers = (epoch: string) => ({ epoch, values: new Map(names.map((name, i) => [name, decisionRevisionValues(stored.revisions)[i]!])) });
    expect((await cache.lookup(req, sameNumbers(stored.epoch))).status).toBe('hit');
    expect((await cache.lookup(req, sameNumbers(`${stored.epoch}-after-a-restart`))).status).toBe('miss');
  });

  it('misses, then hits with the stored verdict and neither its decision id nor its DataScope', async () => {
    const req = view('alice');
    expect((await decideThrough(req)).status).toBe('miss');

    const hit = await cache.lookup(req);
    expect(hit).toEqual({
      status: 'hit',
      epoch: expect.any(String),
      revisions: { tenantPolicy: 0, subject: 0, featureGlobal: 0, featureTenant: 0, rebac: 0 },
      decision: { outcome: 'Permit', permitted: true, evaluations: permit().evaluations, obligations: ['mask:fee'] },
    });
    if (hit.status !== 'hit') throw new Error('expected a hit');
    const answer = cachedDecisionResult(hit, { decisionId: 'fresh-id', dataScope: { kind: 'tenant', tenantId: 't1' } });
    expect(answer).toEqual(expect.objectContaining({ decisionId: 'fresh-id', dataScope: { kind: 'tenant', tenantId: 't1' }, cached: true }));
  });

  it('caches denials too, and keeps them apart from permits of other requests', async () => {
    const deny = permit({ outcome: 'Deny', permitted: false, evaluations: [{ evaluator: 'ABAC', verdict: 'Deny', reason: 'rule 7' }], obligations: [] });
    await decideThrough(view('alice'), deny);
    await decideThrough(view('bob'));
    await expect(cache.lookup(view('alice'))).resolves.toEqual(
      expect.objectContaining({ decision: expect.objectContaining({ outcome: 'Deny', permitted: false }) }),
    );
    await expect(cache.lookup(view('bob'))).resolves.toEqual(expect.objectContaining({ decision: expect.objectContaining({ outcome: 'Permit' }) }));
  });

  it('does not store a decision that failed closed for an infrastructure reason', async () => {
    const req = view('alice');
    const lookup = await cache.lookup(req);
    if (lookup.status !== 'miss') throw new Error('expected a miss');
    const failed = permit({ outcome: 'Deny', permitted: false, failure: 'PolicyStoreUnavailable' });
    await expect(cache.store(req, lookup, failed)).resolves.toBe(false);
    await expect(status(req)).resolves.toBe('miss');
  });

  describe('revisions', () => {
    it.each([
      ['tenant policy', K.tenantPolicy('t1')],
      ['subject', K.subject('t1', 'alice')],
      ['feature global', K.featureGlobal],
      ['feature tenant', K.featureTenant('t1')],
      ['ReBAC (relations behind an Allow)', K.rebac('t1')],
    ])('a bump of the %s revision makes the entry unreachable', async (_name, counter) => {
      const req = view('alice');
      await decideThrough(req);
      await expect(status(req)).resolves.toBe('hit');

      await adapters.revisions.bump(counter);

      await expect(status(req)).resolves.toBe('miss');
      // Stored again under the new revisions, it hits again.
      await decideThrough(req);
      await expect(status(req)).resolves.toBe('hit');
    });

    it.each([
      ['another tenant’s policy', K.tenantPolicy('t2')],
      ['another subject', K.subject('t1', 'bob')],
      ['the same subject name in another tenant', K.subject('t2', 'alice')],
      ['another tenant’s features', K.featureTenant('t2')],
      ['another tenant’s relations', K.rebac('t2')],
      ['the DataScope of the tenant', K.dataScopeTenant('t1')],
      ['the DataScope of the subject', K.dataScopeSubject('t1', 'alice')],
    ])('a bump of %s leaves the entry reachable', async (_name, counter) => {
      const req = view('alice');
      await decideThrough(req);

      await adapters.revisions.bump(counter);

      await expect(status(req)).resolves.toBe('hit');
    });

    it('reads every counter of the key in one call', async () => {
      const read = jest.spyOn(adapters.revisions, 'read');
      await cache.lookup(view('alice'));
      expect(read).toHaveBeenCalledTimes(1);
      expect(read).toHaveBeenCalledWith([K.tenantPolicy('t1'), K.subject('t1', 'alice'), K.featureGlobal, K.featureTenant('t1'), K.rebac('t1')]);
    });

    it('keeps DataScope and ReBAC revisions independent of the policy revisions', async () => {
      const scopeAndRelations = [K.dataScopeTenant('t1'), K.dataScopeSubject('t1', 'alice'), K.rebac('t1')];
      const policy = [K.tenantPolicy('t1'), K.subject('t1', 'alice'), K.featureGlobal, K.featureTenant('t1')];
      const before = await adapters.revisions.read(scopeAndRelations);

      // Everything that clears the permission cache... (a role rename or deletion also changes whom a
      // share with the role reaches, so it bumps ReBAC on its own account: see policy-invalidation.ts)
      for (const type of [A.rolePermissionChanged, A.abacRuleChanged]) {
        await invalidation.handle(createEventEnvelope(type, {}, { tenantId: 't1' }));
      }
      await invalidation.handle(createEventEnvelope(A.featureChanged, { scope: 'global' }, { tenantId: null }));
      for (const name of policy) await adapters.revisions.bump(name);

      // ...leaves the ReBAC revision alone; the DataScope moves only where its own facts (role scope settings) changed.
      const after = await adapters.revisions.read(scopeAndRelations);
      expect(after.values[2]).toBe(before.values[2]);
      expect(after.values[1]).toBe(before.values[1]);

      const policyBefore = await adapters.revisions.read(policy);
      await adapters.revisions.bump(K.dataScopeTenant('t1'));
      await adapters.revisions.bump(K.dataScopeSubject('t1', 'alice'));
      await invalidation.handle(createEventEnvelope(A.relationChanged, { subject: 'alice' }, { tenantId: 't1' }));
      await expect(adapters.revisions.read(policy)).resolves.toEqual(policyBefore);
    });
  });

  describe('invalidation by event', () => {
    const alice1 = view('alice', 't1');
    const bob1 = view('bob', 't1');
    const alice2 = view('alice', 't2');

    beforeEach(async () => {
      for (const req of [alice1, bob1, alice2]) await decideThrough(req);
    });

    it.each([
      ['a role update', A.roleUpdated, 't1', {}, ['miss', 'miss', 'hit']],
      ['a role-permission change', A.rolePermissionChanged, 't1', {}, ['miss', 'miss', 'hit']],
      ['an ABAC rule change of the effective tenant', A.abacRuleChanged, null, { tenantId: 't2' }, ['hit', 'hit', 'miss']],
      ['a global feature change', A.featureChanged, null, { scope: 'global' }, ['miss', 'miss', 'miss']],
      ['a tenant feature override', A.featureChanged, 't2', { scope: 'tenant' }, ['hit', 'hit', 'miss']],
      ['a role assigned to bob by alice', A.userRoleAssigned, 't1', { subject: 'bob', actor: 'alice' }, ['hit', 'miss', 'hit']],
      ['a role revoked from alice', A.userRoleRevoked, 't1', { userId: 'alice' }, ['miss', 'hit', 'hit']],
      ['a relation change', A.relationChanged, 't1', { subject: 'bob' }, ['miss', 'miss', 'hit']],
      ['a delegation of alice', A.delegationChanged, 't1', { subject: 'alice', actor: 'bob' }, ['miss', 'hit', 'hit']],
      ['temporary grants of both', A.temporaryGrantChanged, 't1', { subjects: ['alice', 'bob'] }, ['miss', 'miss', 'hit']],
      ['an unknown authorization event', 'authorization.field-policy.changed', 't1', {}, ['hit', 'hit', 'hit']],
      ['a business event', 'ticket.created', 't1', { subject: 'alice' }, ['hit', 'hit', 'hit']],
    ])('%s invalidates exactly the affected decisions', async (_name, type, tenantId, payload, expected) => {
      await invalidation.handle(createEventEnvelope(type, payload, { tenantId }));
      await expect(Promise.all([alice1, bob1, alice2].map(status))).resolves.toEqual(expected);
    });
  });

  describe('delegated callers', () => {
    it('bypass the cache: no lookup, nothing stored', async () => {
      const req = request(delegated('alice', 'bob'), AuthorizationAction.View, { resourceId: 'case-1' });
      const read = jest.spyOn(adapters.revisions, 'read');
      const get = jest.spyOn(adapters.cache, 'get');
      const set = jest.spyOn(adapters.cache, 'set');

      await expect(cache.lookup(req)).resolves.toEqual({ status: 'bypass' });
      const revisions: DecisionCacheStamp = { epoch: 'e1', revisions: { tenantPolicy: 0, subject: 0, featureGlobal: 0, featureTenant: 0, rebac: 0 } };
      await expect(cache.store(req, revisions, permit())).resolves.toBe(false);
      expect(read).not.toHaveBeenCalled();
      expect(get).not.toHaveBeenCalled();
      expect(set).not.toHaveBeenCalled();
      // Even an entry planted under the delegated request's own key is never served.
      await adapters.cache.set(decisionCacheKey(req, revisions), { ...permit(), expiresAt: Number.MAX_SAFE_INTEGER }, TTL_MS);
      await expect(cache.lookup(req)).resolves.toEqual({ status: 'bypass' });
    });
  });

  describe('lifetime', () => {
    it('stops serving a decision at the expiry instant of the grant it used', async () => {
      const req = view('alice');
      const validUntil = new Date(NOW.getTime() + 1000).toISOString();
      await decideThrough(req, permit(), validUntil);

      clock.advance(999);
      await expect(status(req)).resolves.toBe('hit');
      clock.advance(1);
      await expect(status(req)).resolves.toBe('miss');
    });

    it('takes validUntil from the engine result when not passed', async () => {
      const req = view('alice');
      const lookup = await cache.lookup(req);
      if (lookup.status !== 'miss') throw new Error('expected a miss');
      await cache.store(req, lookup, { ...permit(), validUntil: new Date(NOW.getTime() + 500).toISOString() });
      clock.advance(500);
      await expect(status(req)).resolves.toBe('miss');
    });

    it.each([
      ['in the past', new Date(NOW.getTime() - 1).toISOString()],
      ['now', NOW.toISOString()],
      ['unreadable', 'not-a-date'],
    ])('stores nothing for a validUntil %s', async (_name, validUntil) => {
      const req = view('alice');
      const lookup = await cache.lookup(req);
      if (lookup.status !== 'miss') throw new Error('expected a miss');
      await expect(cache.store(req, lookup, permit(), validUntil)).resolves.toBe(false);
      await expect(status(req)).resolves.toBe('miss');
    });

    it('lives no longer than the configured TTL when the grant lasts longer', async () => {
      const req = view('alice');
      await decideThrough(req, permit(), new Date(NOW.getTime() + 10 * TTL_MS).toISOString());
      clock.advance(TTL_MS - 1);
      await expect(status(req)).resolves.toBe('hit');
      clock.advance(1);
      await expect(status(req)).resolves.toBe('miss');
    });

    it('hands the clamped TTL to the store, so the entry itself is dropped at the grant expiry', async () => {
      const realClockCache = new DecisionCache(adapters.cache, adapters.revisions, { ttlMs: TTL_MS });
      const req = view('alice');
      const lookup = await realClockCache.lookup(req);
      if (lookup.status !== 'miss') throw new Error('expected a miss');
      await realClockCache.store(req, lookup, permit(), new Date(Date.now() + 150).toISOString());
      const key = decisionCacheKey(req, lookup);
      await expect(adapters.cache.get(key)).resolves.toBeDefined();

      await sleep(400);

      await expect(adapters.cache.get(key)).resolves.toBeUndefined();
    });
  });
}

import { DataSource } from 'typeorm';
import { AuthorizationAction, AuthzRpc, parseMessage, TrustedCaller, validateDecisionRequest, ValidDecisionRequest } from '@lp/contracts';
import { InMemoryKeyValueCache, InMemoryRevisionCounters } from '@lp/platform/cache';
import { DecisionAuditWriter } from '../audit';
import { DecisionCache } from '../cache';
import { DecisionEngine } from '../engine';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { AUDIT_UNAVAILABLE, DecisionService } from './decision.service';

/**
 * The service's own rules around the engine: cache hits recompute the DataScope and get a new id,
 * delegated callers are never served from the cache, and a full audit backlog fails closed.
 * The audit writer is real but never started, as when its database is unreachable: records queue.
 */
describe('DecisionService', () => {
  const alice: TrustedCaller = { kind: 'user', subject: 'alice', tenantId: 't1', scopes: [], claimsDigest: 'd1' };
  const view = (caller: TrustedCaller): ValidDecisionRequest =>
    validateDecisionRequest({
      caller,
      resource: { module: 'cases', resourceType: 'case', resourceId: 'c-1', owner: 'bob' },
      action: AuthorizationAction.View,
    });

  function setup(maxBacklog = 1_000) {
    const facts = new InMemoryPolicyFacts();
    facts.defineRole('t1', 'clerk', 'office', ['cases.case.view']);
    facts.bindRole('t1', 'alice', 'clerk');
    facts.setOffices('t1', 'alice', ['paris']);
    const audit = new DecisionAuditWriter({} as DataSource, { durability: 'batched', batchSize: 500, flushIntervalMs: 200, maxBacklog });
    const revisions = new InMemoryRevisionCounters();
    const service = new DecisionService(
      new DecisionEngine({ facts }),
      new DecisionCache(new InMemoryKeyValueCache(), revisions, { ttlMs: 60_000 }),
      audit,
      revisions,
    );
    return { facts, audit, service };
  }

  it('serves a repeat from the cache with a new decision id and a DataScope recomputed from current facts', async () => {
    const { facts, audit, service } = setup();
    const first = await service.decide(view(alice));
    expect(first).toMatchObject({ outcome: 'Permit', cached: false, dataScope: { kind: 'office', officeIds: ['paris'] } });

    facts.setOffices('t1', 'alice', ['lyon']); // no event: the policy cache entry stays valid
    const second = await service.decide(view(alice));
    expect(second.cached).toBe(true);
    expect(second.decisionId).not.toBe(first.decisionId);
    expect(second.dataScope).toEqual({ kind: 'office', tenantId: 't1', officeIds: ['lyon'] });
    expect(audit.backlog()).toBe(2); // a hit is audited too
  });

  it('never serves a delegated caller from the cache', async () => {
    const { facts, service } = setup();
    facts.delegate('t1', 'alice', { grantId: 'g1', actor: 'bob', permissions: ['cases.case.view'], expiresAt: new Date(Date.now() + 60_000) });
    const delegated: TrustedCaller = { ...alice, kind: 'delegated', actor: 'bob', claimsDigest: 'd2' };
    const answers = [await service.decide(view(delegated)), await service.decide(view(delegated))];
    expect(answers.map((a) => a.permitted)).toEqual([true, true]);
    expect(answers.map((a) => a.cached)).toEqual([false, false]);
  });

  it('fails closed with AuditUnavailable once the audit backlog is full, whatever the policy says', async () => {
    const { service } = setup(2);
    expect((await service.decide(view(alice))).permitted).toBe(true);
    expect((await service.decide(view(alice))).permitted).toBe(true);
    const refused = await service.decide(view(alice));
    expect(refused).toMatchObject({ outcome: 'Deny', permitted: false, failure: AUDIT_UNAVAILABLE, dataScope: { kind: 'none' } });
  });

  it('answers a batch in request order', async () => {
    const { service } = setup();
    const bob: TrustedCaller = { ...alice, subject: 'bob', claimsDigest: 'd3' };
    const results = await service.decideBatch([view(alice), view(bob), view(alice)]);
    expect(results.map((r) => r.outcome)).toEqual(['Permit', 'NoMatchingPolicy', 'Permit']);
  });

  it('is reached only through the check where requests enter: a malformed one is refused there', () => {
    const { caller, resource } = view(alice);
    expect(() => parseMessage(AuthzRpc.decide.schema, { caller, payload: { resource, action: 'Launch' } })).toThrow(
      expect.objectContaining({ code: 'Validation.Failed' }),
    );
  });
});

import fc from 'fast-check';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, CallerKind, DecisionRequest } from '@lp/contracts';
import { CacheAdapters, createCacheAdapters } from '@lp/platform/cache';
import { InvalidDecisionRequestError } from '@lp/contracts';
import { request, user } from '../../test/decision.fixtures';
import { DecisionCache } from './decision-cache';
import { decisionCacheContract } from '../../test/decision-cache.contract';
import { decisionCacheKey } from './decision-cache-key';
import { DecisionCacheRevisions, DecisionRevisionKeys } from './decision-revision-keys';

describe('DecisionCache over the in-memory adapters', () => {
  const opened: CacheAdapters[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((a) => a.close()));
  });

  decisionCacheContract(() => {
    const adapters = createCacheAdapters({ keyPrefix: 'unused-in-memory' });
    opened.push(adapters);
    return adapters;
  });

  it('takes only checked requests: the check where they enter refuses what must never reach a key', () => {
    // NaN would serialise like an absent amount. `lookup` takes a ValidDecisionRequest (a compile
    // error otherwise), and the check that makes one refuses it.
    expect(() => request(user('alice'), AuthorizationAction.View, { amount: Number.NaN })).toThrow(InvalidDecisionRequestError);
  });

  it('shares an entry between spellings the engine treats alike (module case, scope order)', async () => {
    const adapters = createCacheAdapters({ keyPrefix: 'unused-in-memory' });
    opened.push(adapters);
    const cache = new DecisionCache(adapters.cache, adapters.revisions, { ttlMs: 60_000 });
    const stored = request(user('alice', { scopes: ['b', 'a'] }), AuthorizationAction.View, { module: 'Cases' });
    const lookup = await cache.lookup(stored);
    if (lookup.status !== 'miss') throw new Error('expected a miss');
    await cache.store(stored, lookup, {
      outcome: 'Permit',
      permitted: true,
      decisionId: 'd',
      evaluations: [],
      obligations: [],
      dataScope: { kind: 'none', tenantId: 't1' },
      cached: false,
    });
    const read = request(user('alice', { scopes: ['a', 'b', 'a'] }), AuthorizationAction.View, { module: 'cases' });
    await expect(cache.lookup(read)).resolves.toEqual(expect.objectContaining({ status: 'hit' }));
  });
});

describe('decisionCacheKey', () => {
  const text = fc.string({ minLength: 1, maxLength: 8 });
  const optionalText = fc.option(text, { nil: undefined });
  const revision = fc.nat({ max: 5 });

  const requestArb: fc.Arbitrary<DecisionRequest> = fc.record({
    caller: fc.record({
      kind: fc.constantFrom<CallerKind>('user', 'application'),
      subject: text,
      tenantId: text,
      clientId: optionalText,
      scopes: fc.uniqueArray(text, { maxLength: 3 }).map((s) => s.sort()),
      claimsDigest: text,
    }),
    resource: fc.record({
      module: text,
      resourceType: text,
      resourceId: optionalText,
      status: optionalText,
      amount: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      sensitivity: optionalText,
      owner: optionalText,
      officeId: optionalText,
    }),
    action: fc.constantFrom(...AUTHORIZATION_ACTIONS),
  });
  const revisionsArb: fc.Arbitrary<DecisionCacheRevisions> = fc.record({
    tenantPolicy: revision,
    subject: revision,
    featureGlobal: revision,
    featureTenant: revision,
    rebac: revision,
  });

  /** Every single-field change the key must see: each caller fact, each resource fact, the action, each revision. */
  type Change = (req: DecisionRequest, rev: DecisionCacheRevisions) => [DecisionRequest, DecisionCacheRevisions];
  const bump = (v: string | undefined) => (v === undefined ? 'x' : `${v}'`);
  const caller =
    (patch: (c: DecisionRequest['caller']) => Partial<DecisionRequest['caller']>): Change =>
    (req, rev) => [{ ...req, caller: { ...req.caller, ...patch(req.caller) } }, rev];
  const resource =
    (patch: (r: DecisionRequest['resource']) => Partial<DecisionRequest['resource']>): Change =>
    (req, rev) => [{ ...req, resource: { ...req.resource, ...patch(req.resource) } }, rev];
  const changes: Record<string, Change> = {
    kind: caller((c) => ({ kind: c.kind === 'user' ? 'application' : 'user' })),
    subject: caller((c) => ({ subject: bump(c.subject) })),
    tenant: caller((c) => ({ tenantId: bump(c.tenantId) })),
    claimsDigest: caller((c) => ({ claimsDigest: bump(c.claimsDigest) })),
    clientId: caller((c) => ({ clientId: bump(c.clientId) })),
    scopes: caller((c) => ({ scopes: [...c.scopes, `${c.scopes.join('')}+`] })),
    module: resource((r) => ({ module: bump(r.module) })),
    resourceType: resource((r) => ({ resourceType: bump(r.resourceType) })),
    resourceId: resource((r) => ({ resourceId: bump(r.resourceId) })),
    status: resource((r) => ({ status: bump(r.status) })),
    amount: resource((r) => ({ amount: r.amount === undefined ? 0 : r.amount + 1 })),
    sensitivity: resource((r) => ({ sensitivity: bump(r.sensitivity) })),
    owner: resource((r) => ({ owner: bump(r.owner) })),
    officeId: resource((r) => ({ officeId: bump(r.officeId) })),
    action: (req, rev) => [{ ...req, action: AUTHORIZATION_ACTIONS[(AUTHORIZATION_ACTIONS.indexOf(req.action) + 1) % AUTHORIZATION_ACTIONS.length]! }, rev],
    ...Object.fromEntries(
      (['tenantPolicy', 'subject', 'featureGlobal', 'featureTenant', 'rebac'] as const).map((field): [string, Change] => [
        `revision ${field}`,
        (req, rev) => [req, { ...rev, [field]: rev[field] + 1 }],
      ]),
    ),
  };

  it('is deterministic and short', () => {
    fc.assert(
      fc.property(requestArb, revisionsArb, (req, rev) => {
        const key = decisionCacheKey(req, { epoch: 'e1', revisions: rev });
        expect(key).toBe(decisionCacheKey(structuredClone(req), { epoch: 'e1', revisions: { ...rev } }));
        expect(key).toMatch(/^decision:[0-9a-f]{64}$/);
      }),
    );
  });

  it.each(Object.keys(changes))('differs when only the %s differs', (name) => {
    fc.assert(
      fc.property(requestArb, revisionsArb, (req, rev) => {
        const [changedReq, changedRev] = changes[name]!(req, rev);
        expect(decisionCacheKey(changedReq, { epoch: 'e1', revisions: changedRev })).not.toBe(decisionCacheKey(req, { epoch: 'e1', revisions: rev }));
      }),
    );
  });

  it('differs when only the epoch differs: the same numbers after a Redis restart never reach an older entry', () => {
    fc.assert(
      fc.property(requestArb, revisionsArb, (req, rev) => {
        expect(decisionCacheKey(req, { epoch: 'e2', revisions: rev })).not.toBe(decisionCacheKey(req, { epoch: 'e1', revisions: rev }));
      }),
    );
  });

  it('tells an absent fact from an empty one and a number from its text', () => {
    const base = request(user('alice'), AuthorizationAction.View);
    const rev: DecisionCacheRevisions = { tenantPolicy: 0, subject: 0, featureGlobal: 0, featureTenant: 0, rebac: 0 };
    const keys = [
      base,
      { ...base, resource: { ...base.resource, status: '' } },
      { ...base, resource: { ...base.resource, amount: 5 } },
      { ...base, resource: { ...base.resource, amount: '5' as unknown as number } },
    ].map((r) => decisionCacheKey(r, { epoch: 'e1', revisions: rev }));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('DecisionRevisionKeys', () => {
  it('names the counters as documented', () => {
    expect(DecisionRevisionKeys.tenantPolicy('t1')).toBe('rev:policy:t1');
    expect(DecisionRevisionKeys.subject('t1', 'alice')).toBe('rev:subject:t1:alice');
    expect(DecisionRevisionKeys.featureGlobal).toBe('rev:feature:global');
    expect(DecisionRevisionKeys.featureTenant('t1')).toBe('rev:feature:t1');
    expect(DecisionRevisionKeys.dataScopeTenant('t1')).toBe('rev:scope:t1');
    expect(DecisionRevisionKeys.dataScopeSubject('t1', 'alice')).toBe('rev:scope:t1:alice');
    expect(DecisionRevisionKeys.rebac('t1')).toBe('rev:rebac:t1');
    expect(DecisionRevisionKeys.rebacSubject('t1', 'alice')).toBe('rev:rebac:t1:alice');
  });

  it('never gives two tenant/subject pairs one counter, whatever their characters', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (t1, s1, t2, s2) => {
        fc.pre(t1 !== t2 || s1 !== s2);
        expect(DecisionRevisionKeys.subject(t1, s1)).not.toBe(DecisionRevisionKeys.subject(t2, s2));
        expect(DecisionRevisionKeys.dataScopeSubject(t1, s1)).not.toBe(DecisionRevisionKeys.dataScopeTenant(t2));
        expect(DecisionRevisionKeys.rebacSubject(t1, s1)).not.toBe(DecisionRevisionKeys.rebacSubject(t2, s2));
        expect(DecisionRevisionKeys.rebacSubject(t1, s1)).not.toBe(DecisionRevisionKeys.rebac(t2));
      }),
    );
    expect(DecisionRevisionKeys.subject('a:b', 'c')).not.toBe(DecisionRevisionKeys.subject('a', 'b:c'));
  });
});

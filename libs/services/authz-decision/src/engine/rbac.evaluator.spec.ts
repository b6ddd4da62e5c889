import { AuthorizationAction } from '@lp/contracts';
import { application, contextOf, delegated, minutesFrom, NOW, request, TENANT, user } from '../../test/decision.fixtures';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { RbacEvaluator } from './rbac.evaluator';

const VIEW = 'cases.case.view';
const UPDATE = 'cases.case.update';

function setup(): { facts: InMemoryPolicyFacts; rbac: RbacEvaluator } {
  const facts = new InMemoryPolicyFacts();
  facts.defineRole(TENANT, 'case-worker', 'office', [VIEW, UPDATE]);
  facts.defineRole(TENANT, 'auditor', 'tenant', [VIEW]);
  facts.defineRole(TENANT, 'clerk', 'own', ['cases.note.create']);
  return { facts, rbac: new RbacEvaluator(facts) };
}

describe('RbacEvaluator', () => {
  describe('not applicable', () => {
    it('is Neutral for an Application caller and reads nothing, even when the code is in its scopes', async () => {
      const { facts, rbac } = setup();
      const outcome = await rbac.evaluate(contextOf(request(application('app', [VIEW]), AuthorizationAction.View)));
      expect(outcome.result).toEqual({ evaluator: 'RBAC', verdict: 'Neutral', reason: expect.stringMatching(/Application caller/) });
      expect(facts.readCount('subjectPermissions')).toBe(0);
    });
  });

  describe('role bindings', () => {
    it('allows a user holding {module}.{resource}.{action} through a role and names the role', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'case-worker');
      facts.setOffices(TENANT, 'alice', ['o1']);
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.Update)));
      expect(outcome.result.verdict).toBe('Allow');
      expect(outcome.result.reason).toBe('permission cases.case.update via role case-worker');
      expect(outcome.scope).toEqual([{ source: 'role', roleName: 'case-worker', setting: 'office', officeIds: ['o1'] }]);
      expect(outcome.grantExpiries).toEqual([]);
    });

    it('names every role that holds the code', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'case-worker');
      facts.bindRole(TENANT, 'alice', 'auditor');
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.reason).toBe('permission cases.case.view via roles auditor, case-worker'); // sorted, not binding order
      expect(outcome.scope?.map((s) => s.source === 'role' && s.setting)).toEqual(['office', 'tenant']);
    });

    it('is Neutral when no role holds the code (another code of the same module does not count)', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.Delete)));
      expect(outcome.result).toEqual({ evaluator: 'RBAC', verdict: 'Neutral', reason: 'permission cases.case.delete absent' });
    });

    it('is Neutral for a subject with no bindings, and for a role bound in another tenant', async () => {
      const { facts, rbac } = setup();
      facts.defineRole('t2', 'auditor', 'tenant', [VIEW]);
      facts.bindRole('t2', 'alice', 'auditor');
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Neutral');
    });

    it('never answers Deny for a missing permission', async () => {
      const { rbac } = setup();
      for (const action of [AuthorizationAction.View, AuthorizationAction.Manage]) {
        const outcome = await rbac.evaluate(contextOf(request(user('nobody'), action)));
        expect(outcome.result.verdict).toBe('Neutral');
      }
    });
  });

  describe('temporary grants (absolute expiry)', () => {
    it('allows through an active grant, names it and reports its expiry', async () => {
      const { facts, rbac } = setup();
      const expiresAt = minutesFrom(NOW, 30);
      facts.grantTemporary(TENANT, 'alice', { grantId: 'tg-1', permissions: [VIEW], expiresAt, dataScope: 'tenant' });
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Allow');
      expect(outcome.result.reason).toBe(`permission ${VIEW} via temporary grant tg-1 (expires ${expiresAt.toISOString()})`);
      expect(outcome.grantExpiries).toEqual([expiresAt]);
      expect(outcome.scope).toEqual([{ source: 'temporary-grant', grantId: 'tg-1', setting: 'tenant', officeIds: [] }]);
    });

    it('stops counting a grant at its expiry instant, judged by the clock of the decision', async () => {
      const { facts, rbac } = setup();
      const expiresAt = minutesFrom(NOW, 30);
      facts.grantTemporary(TENANT, 'alice', { grantId: 'tg-1', permissions: [VIEW], expiresAt });
      const req = request(user('alice'), AuthorizationAction.View);

      expect((await rbac.evaluate(contextOf(req, new Date(expiresAt.getTime() - 1)))).result.verdict).toBe('Allow');
      const atExpiry = await rbac.evaluate(contextOf(req, expiresAt));
      expect(atExpiry.result.verdict).toBe('Neutral');
      expect(atExpiry.result.reason).toBe(`permission ${VIEW} absent: temporary grant tg-1 expired at ${expiresAt.toISOString()}`);
      expect((await rbac.evaluate(contextOf(req, minutesFrom(NOW, 60)))).result.verdict).toBe('Neutral');
    });

    it('prefers a role to a grant, so the decision carries no grant expiry', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      facts.grantTemporary(TENANT, 'alice', { grantId: 'tg-1', permissions: [VIEW], expiresAt: minutesFrom(NOW, 5) });
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.reason).toMatch(/via role auditor$/);
      expect(outcome.grantExpiries).toEqual([]);
    });

    it('uses the active grant that lasts longest', async () => {
      const { facts, rbac } = setup();
      facts.grantTemporary(TENANT, 'alice', { grantId: 'short', permissions: [VIEW], expiresAt: minutesFrom(NOW, 5) });
      facts.grantTemporary(TENANT, 'alice', { grantId: 'long', permissions: [VIEW], expiresAt: minutesFrom(NOW, 50) });
      facts.grantTemporary(TENANT, 'alice', { grantId: 'expired', permissions: [VIEW], expiresAt: minutesFrom(NOW, -5) });
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.reason).toMatch(/temporary grant long/);
      expect(outcome.grantExpiries).toEqual([minutesFrom(NOW, 50)]);
    });

    it('never counts a grant whose expiry is not a valid date', async () => {
      const { facts, rbac } = setup();
      facts.grantTemporary(TENANT, 'alice', { grantId: 'bad', permissions: [VIEW], expiresAt: new Date('not a date') });
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Neutral');
      expect(outcome.result.reason).toMatch(/bad expired at an invalid date/);
    });
  });

  describe('delegated callers (actor acting for the subject)', () => {
    const grantExpiry = minutesFrom(NOW, 20);

    function delegation(facts: InMemoryPolicyFacts, extra: Partial<{ actor: string; permissions: string[]; expiresAt: Date; grantId: string }> = {}) {
      facts.delegate(TENANT, 'alice', { grantId: 'dg-1', actor: 'bob', permissions: [VIEW], expiresAt: grantExpiry, ...extra });
    }

    it('allows through an active delegated grant over the delegator role, naming both', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      delegation(facts);
      const outcome = await rbac.evaluate(contextOf(request(delegated('alice', 'bob'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Allow');
      expect(outcome.result.reason).toBe(`permission ${VIEW} via delegated grant dg-1 (actor bob, expires ${grantExpiry.toISOString()}) over role auditor`);
      expect(outcome.grantExpiries).toEqual([grantExpiry]);
      expect(outcome.scope).toEqual([{ source: 'role', roleName: 'auditor', setting: 'tenant', officeIds: [] }]);
    });

    it('reports both expiries when the delegator holds the code only through a temporary grant', async () => {
      const { facts, rbac } = setup();
      const tempExpiry = minutesFrom(NOW, 10);
      facts.grantTemporary(TENANT, 'alice', { grantId: 'tg-1', permissions: [VIEW], expiresAt: tempExpiry });
      delegation(facts);
      const outcome = await rbac.evaluate(contextOf(request(delegated('alice', 'bob'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Allow');
      expect(outcome.grantExpiries).toEqual([grantExpiry, tempExpiry]);
    });

    it('is Neutral without a delegated grant, even though the subject holds the code', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      const outcome = await rbac.evaluate(contextOf(request(delegated('alice', 'bob'), AuthorizationAction.View)));
      expect(outcome.result).toMatchObject({ verdict: 'Neutral', reason: 'no delegated grant from alice to actor bob' });
    });

    it('is Neutral for a grant to another actor, or another grant than the token names', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      delegation(facts, { actor: 'carol' });
      expect((await rbac.evaluate(contextOf(request(delegated('alice', 'bob'), AuthorizationAction.View)))).result.verdict).toBe('Neutral');

      delegation(facts, { actor: 'bob', grantId: 'dg-1' });
      const other = await rbac.evaluate(contextOf(request(delegated('alice', 'bob', { grantId: 'dg-9' }), AuthorizationAction.View)));
      expect(other.result).toMatchObject({ verdict: 'Neutral', reason: 'no delegated grant dg-9 from alice to actor bob' });
      const named = await rbac.evaluate(contextOf(request(delegated('alice', 'bob', { grantId: 'dg-1' }), AuthorizationAction.View)));
      expect(named.result.verdict).toBe('Allow');
    });

    it('is Neutral once the delegated grant has expired, judged by the clock', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      delegation(facts);
      const req = request(delegated('alice', 'bob'), AuthorizationAction.View);
      expect((await rbac.evaluate(contextOf(req, minutesFrom(NOW, 19)))).result.verdict).toBe('Allow');
      const late = await rbac.evaluate(contextOf(req, grantExpiry));
      expect(late.result).toMatchObject({ verdict: 'Neutral', reason: `delegated grant dg-1 expired at ${grantExpiry.toISOString()}` });
    });

    it('is Neutral for a code the grant does not list, even though the delegator holds it', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'case-worker');
      delegation(facts);
      const outcome = await rbac.evaluate(contextOf(request(delegated('alice', 'bob'), AuthorizationAction.Update)));
      expect(outcome.result).toMatchObject({ verdict: 'Neutral', reason: `delegated grant to actor bob does not cover ${UPDATE}` });
    });

    it('never widens the delegator: a listed code the delegator no longer holds is Neutral', async () => {
      const { facts, rbac } = setup();
      delegation(facts);
      const outcome = await rbac.evaluate(contextOf(request(delegated('alice', 'bob'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Neutral');
      expect(outcome.result.reason).toMatch(/delegator alice does not hold it/);
    });

    it('gives a user caller nothing through grants it delegated to others', async () => {
      const { facts, rbac } = setup();
      delegation(facts);
      facts.delegate(TENANT, 'bob', { grantId: 'dg-2', actor: 'alice', permissions: [VIEW], expiresAt: grantExpiry });
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result.verdict).toBe('Neutral');
    });
  });

  describe('store failure', () => {
    it('fails closed with a Deny that names no internals and flags the store', async () => {
      const { facts, rbac } = setup();
      facts.bindRole(TENANT, 'alice', 'auditor');
      facts.failStore('subjectPermissions', new Error('connection reset by 10.0.0.7'));
      const outcome = await rbac.evaluate(contextOf(request(user('alice'), AuthorizationAction.View)));
      expect(outcome.result).toEqual({ evaluator: 'RBAC', verdict: 'Deny', reason: 'subject permission store unavailable (fail-closed)' });
      expect(outcome.storeFailure).toBe('subjectPermissions');
      expect(outcome.inputs['storeError']).toMatch(/connection reset/);
    });
  });
});

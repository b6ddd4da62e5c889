import { PolicyOverlay, validateDecisionRequest } from '@lp/contracts';
import { AbacVerdict } from '../engine/abac-rule';
import { DecisionEngine } from '../engine/decision-engine';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';
import { MemoizedPolicyFacts, OverlayPolicyFacts, ResolvedOverlay } from './overlay-policy-facts';

const T = 't1';

function stored(): InMemoryPolicyFacts {
  return InMemoryPolicyFacts.fromSnapshot({
    featureDefaults: { tickets: true, chat: false },
    tenants: {
      [T]: {
        roles: {
          clerk: { dataScope: 'own', permissions: ['cases.case.view'] },
          admin: { dataScope: 'tenant', permissions: ['cases.case.view', 'cases.case.update'] },
        },
        bindings: { ann: ['clerk'], root: ['admin'] },
        offices: { ann: ['o1'] },
        abacRules: [{ id: 'r1', priority: 1, verdict: 'Deny', conditions: [], modules: ['billing'] }],
      },
      t2: { roles: { clerk: { dataScope: 'own', permissions: ['cases.case.view'] } }, bindings: { ann: ['clerk'] } },
    },
  });
}

function overlayOn(base: InMemoryPolicyFacts, overlay: PolicyOverlay, extra: Partial<ResolvedOverlay> = {}): OverlayPolicyFacts {
  const roles = new Map([
    ['clerk', { roleName: 'clerk', dataScope: 'own' as const, permissions: ['cases.case.view'] as const }],
    ['admin', { roleName: 'admin', dataScope: 'tenant' as const, permissions: ['cases.case.view', 'cases.case.update'] as const }],
  ]);
  return new OverlayPolicyFacts(base, { tenantId: T, overlay, roles, addedAbacRules: [], ...extra });
}

describe('OverlayPolicyFacts', () => {
  it('without changes reads exactly the stored facts', async () => {
    const base = stored();
    const facts = overlayOn(base, {});
    await expect(facts.permissionsOfSubject(T, 'ann')).resolves.toEqual(await base.permissionsOfSubject(T, 'ann'));
    await expect(facts.abacRules(T)).resolves.toEqual(await base.abacRules(T));
    await expect(facts.featureEnabled(T, 'tickets')).resolves.toBe(true);
  });

  it('binds a role with its stored definition and unbinds another, for that subject only', async () => {
    const facts = overlayOn(stored(), {
      addRoleBindings: [{ subject: 'ann', roleName: 'admin' }],
      removeRoleBindings: [{ subject: 'ann', roleName: 'clerk' }],
    });
    const ann = await facts.permissionsOfSubject(T, 'ann');
    expect(ann.roles).toEqual([{ roleName: 'admin', dataScope: 'tenant', permissions: ['cases.case.update', 'cases.case.view'] }]);
    expect(ann.officeIds).toEqual(['o1']);
    expect((await facts.permissionsOfSubject(T, 'root')).roles.map((r) => r.roleName)).toEqual(['admin']);
  });

  it('does not bind a role twice', async () => {
    const facts = overlayOn(stored(), { addRoleBindings: [{ subject: 'ann', roleName: 'clerk' }] });
    expect((await facts.permissionsOfSubject(T, 'ann')).roles).toHaveLength(1);
  });

  it('grants and revokes permissions on every holder of the role, including a role bound by the overlay', async () => {
    const facts = overlayOn(stored(), {
      addRoleBindings: [{ subject: 'bob', roleName: 'clerk' }],
      addRolePermissions: [{ roleName: 'clerk', permissionCode: 'cases.case.delete' }],
      removeRolePermissions: [
        { roleName: 'clerk', permissionCode: 'cases.case.view' },
        { roleName: 'admin', permissionCode: 'cases.case.update' },
      ],
    });
    expect((await facts.permissionsOfSubject(T, 'ann')).roles[0]!.permissions).toEqual(['cases.case.delete']);
    expect((await facts.permissionsOfSubject(T, 'bob')).roles[0]!.permissions).toEqual(['cases.case.delete']);
    expect((await facts.permissionsOfSubject(T, 'root')).roles[0]!.permissions).toEqual(['cases.case.view']);
  });

  it('changes nothing in another tenant', async () => {
    const base = stored();
    const facts = overlayOn(base, {
      removeRoleBindings: [{ subject: 'ann', roleName: 'clerk' }],
      abacRules: { remove: ['r1'] },
      features: [{ code: 'chat', enabled: true }],
    });
    expect((await facts.permissionsOfSubject('t2', 'ann')).roles.map((r) => r.roleName)).toEqual(['clerk']);
    await expect(facts.featureEnabled('t2', 'chat')).resolves.toBe(false);
    expect((await facts.permissionsOfSubject(T, 'ann')).roles).toEqual([]);
    await expect(facts.featureEnabled(T, 'chat')).resolves.toBe(true);
  });

  it('removes ABAC rules by id and adds the overlay rules', async () => {
    const added = { id: 'new', priority: 5, verdict: AbacVerdict.Allow, conditions: [] };
    const facts = overlayOn(stored(), { abacRules: { remove: ['r1'] } }, { addedAbacRules: [added] });
    await expect(facts.abacRules(T)).resolves.toEqual([added]);
  });

  it('overrides defined features only: an undefined feature stays undefined', async () => {
    const facts = overlayOn(stored(), {
      features: [
        { code: 'tickets', enabled: false },
        { code: 'ghost', enabled: true },
      ],
    });
    await expect(facts.featureEnabled(T, 'tickets')).resolves.toBe(false);
    await expect(facts.featureEnabled(T, 'ghost')).resolves.toBeUndefined();
  });

  it('never changes the facts it wraps', async () => {
    const base = stored();
    const facts = overlayOn(base, {
      addRoleBindings: [{ subject: 'bob', roleName: 'admin' }],
      addRolePermissions: [{ roleName: 'clerk', permissionCode: 'x.y.view' }],
    });
    await facts.permissionsOfSubject(T, 'bob');
    await facts.permissionsOfSubject(T, 'ann');
    expect((await base.permissionsOfSubject(T, 'bob')).roles).toEqual([]);
    expect((await base.permissionsOfSubject(T, 'ann')).roles[0]!.permissions).toEqual(['cases.case.view']);
  });

  it('drives the engine: an overlay binding turns NoMatchingPolicy into Permit with the role’s scope', async () => {
    const base = stored();
    const request = validateDecisionRequest({
      caller: { kind: 'user' as const, subject: 'bob', tenantId: T, scopes: [], claimsDigest: 'x' },
      resource: { module: 'cases', resourceType: 'case' },
      action: 'Update',
    });
    expect((await new DecisionEngine({ facts: base }).decide(request)).outcome).toBe('NoMatchingPolicy');
    const simulated = await new DecisionEngine({ facts: overlayOn(base, { addRoleBindings: [{ subject: 'bob', roleName: 'admin' }] }) }).decide(request);
    expect(simulated.outcome).toBe('Permit');
    expect(simulated.dataScope).toEqual({ kind: 'tenant', tenantId: T });
  });

  it('fails closed like the stored reader: a store failure still denies', async () => {
    const base = stored();
    base.failStore('abacRules');
    const facts = overlayOn(base, { addRoleBindings: [{ subject: 'bob', roleName: 'admin' }] });
    const result = await new DecisionEngine({ facts }).decide(
      validateDecisionRequest({
        caller: { kind: 'user', subject: 'bob', tenantId: T, scopes: [], claimsDigest: 'x' },
        resource: { module: 'cases', resourceType: 'case' },
        action: 'View',
      }),
    );
    expect(result.outcome).toBe('Deny');
  });
});

describe('MemoizedPolicyFacts', () => {
  it('reads each fact once, and reads again after a failure', async () => {
    const base = stored();
    const memo = new MemoizedPolicyFacts(base);
    await memo.permissionsOfSubject(T, 'ann');
    await memo.permissionsOfSubject(T, 'ann');
    await memo.permissionsOfSubject(T, 'root');
    expect(base.readCount('subjectPermissions')).toBe(2);
    base.failStore('features');
    await expect(memo.featureEnabled(T, 'tickets')).rejects.toThrow();
    base.restoreStore('features');
    await expect(memo.featureEnabled(T, 'tickets')).resolves.toBe(true);
    expect(base.readCount('features')).toBe(2);
  });
});

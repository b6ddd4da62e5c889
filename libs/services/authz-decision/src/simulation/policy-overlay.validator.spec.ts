import { ValidationError } from '@lp/contracts';
import { validatePolicyOverlay } from './policy-overlay.validator';

function problemsOf(value: unknown): Record<string, string[]> {
  try {
    validatePolicyOverlay(value);
  } catch (error) {
    if (error instanceof ValidationError) return error.errors ?? {};
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('validatePolicyOverlay', () => {
  it('takes an absent overlay as no changes, and a full one as it is', () => {
    expect(validatePolicyOverlay(undefined)).toEqual({});
    const overlay = {
      addRoleBindings: [{ subject: 'bob', roleName: 'clerk' }],
      removeRoleBindings: [],
      addRolePermissions: [{ roleName: 'clerk', permissionCode: 'cases.case.view' }],
      removeRolePermissions: [{ roleName: 'clerk', permissionCode: 'cases.case.update' }],
      abacRules: { add: [{ priority: 1, verdict: 2, conditions: [{ field: 1, operator: 3, value: ['a', 'b'] }], actions: ['View'] }], remove: ['r1'] },
      features: [{ code: 'tickets', enabled: false }],
    };
    expect(validatePolicyOverlay(overlay)).toBe(overlay);
  });

  it.each([
    ['not an object', [], 'overlay'],
    ['an unknown list', { grantAll: [] }, 'overlay.grantAll'],
    ['a list that is not one', { addRoleBindings: { subject: 'bob' } }, 'overlay.addRoleBindings'],
    ['too many entries', { addRoleBindings: Array.from({ length: 101 }, () => ({ subject: 's', roleName: 'r' })) }, 'overlay.addRoleBindings'],
    ['a missing role name', { removeRoleBindings: [{ subject: 'bob' }] }, 'overlay.removeRoleBindings.0.roleName'],
    ['an extra binding field', { addRoleBindings: [{ subject: 'bob', roleName: 'r', tenantId: 'x' }] }, 'overlay.addRoleBindings.0.tenantId'],
    ['an overlong code', { addRolePermissions: [{ roleName: 'r', permissionCode: 'c'.repeat(201) }] }, 'overlay.addRolePermissions.0.permissionCode'],
    ['a verdict out of the enumeration', { abacRules: { add: [{ priority: 1, verdict: 0, conditions: [] }] } }, 'overlay.abacRules.add.0.verdict'],
    ['a fractional priority', { abacRules: { add: [{ priority: 1.5, verdict: 1, conditions: [] }] } }, 'overlay.abacRules.add.0.priority'],
    [
      'an object as condition value',
      { abacRules: { add: [{ priority: 1, verdict: 1, conditions: [{ field: 1, operator: 1, value: { a: 1 } }] }] } },
      'overlay.abacRules.add.0.conditions.0.value',
    ],
    ['an unknown action filter', { abacRules: { add: [{ priority: 1, verdict: 1, conditions: [], actions: ['Fly'] }] } }, 'overlay.abacRules.add.0.actions'],
    ['a rule id that is not a string', { abacRules: { remove: [7] } }, 'overlay.abacRules.remove'],
    ['an extra abacRules key', { abacRules: { replace: [] } }, 'overlay.abacRules.replace'],
    ['a non-boolean feature state', { features: [{ code: 'tickets', enabled: 'no' }] }, 'overlay.features.0.enabled'],
  ])('refuses %s', (_what, overlay, field) => {
    expect(Object.keys(problemsOf(overlay))).toContain(field);
  });
});

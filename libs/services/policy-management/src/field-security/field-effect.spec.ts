import { FieldPolicyEffect } from '../policy-store';
import { fieldEffectName, fieldEffectOf, FIELD_EFFECT_NAMES, strictestFieldEffects } from './field-effect';

describe('field effects', () => {
  it('maps names to the persisted integers and back', () => {
    expect(FIELD_EFFECT_NAMES.map(fieldEffectOf)).toEqual([1, 2, 3]);
    expect([1, 2, 3].map((n) => fieldEffectName(n as FieldPolicyEffect))).toEqual(['hidden', 'masked', 'read-only']);
    expect(() => fieldEffectName(4 as FieldPolicyEffect)).toThrow('unknown field policy effect 4');
  });

  it('keeps the strictest effect per field across roles: hidden > masked > read-only', () => {
    const { Hidden, Masked, ReadOnly } = FieldPolicyEffect;
    expect(
      strictestFieldEffects([
        { field: 'ssn', roleName: 'clerk', effect: Masked },
        { field: 'ssn', roleName: 'intern', effect: Hidden },
        { field: 'ssn', roleName: 'auditor', effect: ReadOnly },
        { field: 'amount', roleName: 'clerk', effect: ReadOnly },
        { field: 'amount', roleName: 'auditor', effect: Masked },
        { field: 'notes', roleName: 'zeta', effect: ReadOnly },
        { field: 'notes', roleName: 'alpha', effect: ReadOnly },
      ]),
    ).toEqual([
      { field: 'amount', effect: 'masked', roles: ['auditor'] },
      { field: 'notes', effect: 'read-only', roles: ['alpha', 'zeta'] },
      { field: 'ssn', effect: 'hidden', roles: ['intern'] },
    ]);
  });

  it('is empty without policies', () => {
    expect(strictestFieldEffects([])).toEqual([]);
  });
});

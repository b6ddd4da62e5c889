import { AbacField, AbacOperator, AbacVerdict } from '@lp/contracts';
import { abacValueProblem, namedCondition, namedVerdict, storedCondition, storedVerdict } from './abac-rule.mapping';

const limits = { listItems: 3, stringLength: 5 };

describe('ABAC rule mapping', () => {
  it('stores names as the core integers and reads them back', () => {
    expect(storedCondition({ field: 'ResourceAmount', operator: 'GreaterThan', value: 10 })).toEqual({ field: 2, operator: 5, value: 10 });
    expect(storedCondition({ field: 'CallerIsOwner', operator: 'Exists' })).toEqual({ field: AbacField.CallerIsOwner, operator: AbacOperator.Exists });
    expect(storedVerdict('Deny')).toBe(2);
    expect(namedCondition({ field: 12, operator: 3, value: ['bob'] })).toEqual({ field: 'CallerSubject', operator: 'In', value: ['bob'] });
    expect(namedVerdict(AbacVerdict.Allow)).toBe('Allow');
  });

  it('shows integers the enumerations do not know as they are stored', () => {
    expect(namedCondition({ field: 99, operator: 0 })).toEqual({ field: 99, operator: 0 });
    expect(namedVerdict(7)).toBe(7);
  });

  it.each([
    ['ResourceStatus', 'Equals', 'open', undefined],
    ['ResourceAmount', 'LessThanOrEqual', 100.5, undefined],
    ['CallerIsOwner', 'NotEquals', false, undefined],
    ['ResourceSensitivity', 'NotIn', ['a', 'b'], undefined],
    ['ResourceOwner', 'NotExists', undefined, undefined],
    ['ResourceAmount', 'Equals', '10', 'value must be a number for field ResourceAmount'],
    ['ResourceStatus', 'LessThan', 3, 'operator LessThan compares numbers; field ResourceStatus is a string'],
    ['ResourceAmount', 'In', [1, '2'], 'value must be an array of number values for field ResourceAmount and operator In'],
    ['ResourceStatus', 'In', 'open', 'value must be an array of string values for field ResourceStatus and operator In'],
    ['ResourceStatus', 'In', [], 'value must hold 1 to 3 items for operator In'],
    ['ResourceStatus', 'In', ['a', 'b', 'c', 'd'], 'value must hold 1 to 3 items for operator In'],
    ['ResourceStatus', 'Equals', 'toolong', 'value must be at most 5 characters long'],
    ['ResourceStatus', 'Equals', undefined, 'value is required for operator Equals'],
    ['ResourceStatus', 'Equals', null, 'value is required for operator Equals'],
    ['ResourceStatus', 'Exists', 'x', 'value must be absent for operator Exists'],
    // Unknown names are reported on field/operator, not again on the value.
    ['Colour', 'Equals', 1, undefined],
    ['ResourceStatus', 'Resembles', 1, undefined],
    ['toString', 'Equals', 1, undefined],
  ])('%s %s %j → %s', (field, operator, value, problem) => {
    expect(abacValueProblem(field, operator, value, limits)).toBe(problem);
  });
});

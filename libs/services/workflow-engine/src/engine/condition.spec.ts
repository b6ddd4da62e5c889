import { checkCondition, ConditionRejectedError, evaluateCondition } from './condition';

describe('conditions (JSONLogic)', () => {
  const vars = { amount: 12_000, matter: { type: 'litigation', office: 'paris' }, tags: ['urgent'], flag: false };

  it.each([
    [{ '>': [{ var: 'amount' }, 10_000] }, true],
    [{ '<=': [{ var: 'amount' }, 10_000] }, false],
    [{ and: [{ '==': [{ var: 'matter.type' }, 'litigation'] }, { in: [{ var: 'matter.office' }, ['paris', 'lyon']] }] }, true],
    [{ or: [{ var: 'flag' }, { '!': { var: 'missing' } }] }, true],
    [{ in: ['urgent', { var: 'tags' }] }, true],
    [{ '<': [10_000, { var: 'amount' }, 20_000] }, true],
    [{ some: [{ var: 'tags' }, { '==': [{ var: '' }, 'urgent'] }] }, true],
    [{ '==': [{ var: 'nobody.here' }, null] }, true],
  ])('%j is %s', (rule, expected) => {
    expect(evaluateCondition(rule, vars)).toBe(expected);
  });

  it('lists the process variables read, not the item variables of map/filter/some', () => {
    const check = checkCondition({ and: [{ '>': [{ var: 'amount' }, 1] }, { some: [{ var: 'tags' }, { '==': [{ var: 'name' }, 'x'] }] }] });
    expect(check).toEqual({ errors: [], variables: ['amount', 'tags'] });
  });

  it.each([
    [{ log: 1 }, /forbidden operator "log"/],
    [{ 'Math.max': [1, 2] }, /forbidden operator "Math.max"/],
    [{ '==': [{ var: '__proto__.polluted' }, 1] }, /not allowed/],
    [{ '==': [{ var: { cat: ['a', 'b'] } }, 1] }, /literal name/],
    [{ '==': [1, 1], '!=': [1, 2] }, /exactly one operator/],
  ])('refuses %j', (rule, reason) => {
    expect(checkCondition(rule).errors.join()).toMatch(reason);
    expect(() => evaluateCondition(rule as Record<string, unknown>, vars)).toThrow(ConditionRejectedError);
  });

  it('never compiles code: evaluation does not reach the Function constructor', () => {
    const spy = jest.spyOn(globalThis, 'Function');
    evaluateCondition({ '>': [{ var: 'amount' }, 1] }, vars);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});

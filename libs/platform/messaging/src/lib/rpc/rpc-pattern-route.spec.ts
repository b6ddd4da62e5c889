import { isPlainPatternName } from './rpc-pattern-route';

describe('isPlainPatternName', () => {
  it.each(['authz.decide', 'authz.audit.query', 'bench.echo', 'policy-management.roles:list', '_internal'])('routes %s as itself', (pattern) => {
    expect(isPlainPatternName(pattern)).toBe(true);
    expect(() => JSON.parse(pattern)).toThrow(SyntaxError); // what Nest would have tried, and failed at
  });

  it.each(['{"cmd":"sum"}', '["a"]', '"quoted"', '42', '-1', 'true', 'false', 'null', '', 'with space', 'ünïcode'])('leaves %s to Nest', (pattern) => {
    expect(isPlainPatternName(pattern)).toBe(false);
  });

  it('leaves anything that is not a string to Nest', () => {
    expect(isPlainPatternName({ cmd: 'sum' })).toBe(false);
    expect(isPlainPatternName(undefined)).toBe(false);
  });
});

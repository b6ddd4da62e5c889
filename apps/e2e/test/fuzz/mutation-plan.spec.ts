import { allot, DEFAULT_FUZZ_BUDGET, digestOf, fuzzSettings, planFor } from './mutation-plan';
import { FuzzOperation, mutationKindsOf } from './request-mutations';

const withBodyAndPath: FuzzOperation = {
  service: 'policy-management',
  method: 'put',
  path: '/api/authorization/abac-rules/{ruleId}',
  pathParams: ['ruleId'],
  queryParams: [],
  bodySchema: { type: 'object', properties: { name: { type: 'string' }, priority: { type: 'integer' }, verdict: { enum: ['Allow', 'Deny'] } } },
};
const listing: FuzzOperation = { service: 'policy-management', method: 'get', path: '/api/authorization/roles', pathParams: [], queryParams: ['page'] };
const emptyBody: FuzzOperation = {
  service: 'workflow-engine',
  method: 'post',
  path: '/api/workflow/x',
  pathParams: [],
  queryParams: [],
  bodySchema: { type: 'object' },
};

const labels = (op: FuzzOperation, seed: number, budget: number | 'all') => planFor(op, { seed, budget }).map((r) => r.label);

describe('the fuzz plan of an operation', () => {
  it.each([withBodyAndPath, listing, emptyBody])('sends every kind at least once within the budget ($method $path)', (op) => {
    const kinds = [...mutationKindsOf(op).map((k) => k.kind), 'generated'];
    for (const budget of [1, 5, DEFAULT_FUZZ_BUDGET, 40]) {
      const plan = planFor(op, { seed: 7, budget });
      expect(new Set(plan.map((r) => r.kind))).toEqual(new Set(kinds));
      expect(plan.length).toBe(Math.max(budget, kinds.length));
    }
  });

  it('sends the same requests for the same seed, other values for another seed', () => {
    const once = planFor(withBodyAndPath, { seed: 42, budget: 16 });
    expect(digestOf(planFor(withBodyAndPath, { seed: 42, budget: 16 }))).toBe(digestOf(once));
    const seeds = [43, 44, 45, 46].map((seed) => digestOf(planFor(withBodyAndPath, { seed, budget: 16 })));
    expect(new Set([digestOf(once), ...seeds]).size).toBe(5);
  });

  it('draws every field and every value over seeds, and a larger budget sends a superset', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) for (const label of labels(withBodyAndPath, seed, 16)) seen.add(label);
    for (const field of ['name', 'priority', 'verdict'])
      for (const what of ['NUL', 'lone surrogate', 'null', 'huge number', '100k string']) expect(seen).toContain(`${field}: ${what}`);
    expect(seen).toContain('path a%00b');
    expect(seen).toContain('nested objects 1,500 deep');
    const small = labels(withBodyAndPath, 9, 16);
    const large = new Set(labels(withBodyAndPath, 9, 32));
    expect(small.filter((label) => !large.has(label) && !label.startsWith('generated'))).toEqual([]);
  });

  it('with FUZZ_BUDGET=all sends the exhaustive sweep: every fixed request, padded with generated ones to 30', () => {
    // 10 whole-body requests, 7 per field for 3 fields, 10 path values, the prototype query and 8 query values.
    const all = labels(withBodyAndPath, 1, 'all');
    expect(all.filter((label) => !label.startsWith('generated'))).toHaveLength(10 + 7 * 3 + 10 + 1 + 8);
    expect(all.filter((label) => label.startsWith('generated'))).toHaveLength(1);
    expect(labels(listing, 1, 'all')).toHaveLength(30);
  });

  it('spreads a budget over the kinds round by round, generated values last each round', () => {
    expect(allot([2, 1, 8], 4)).toEqual({ counts: [1, 1, 1], generated: 1 });
    expect(allot([2, 1, 8], 7)).toEqual({ counts: [2, 1, 2], generated: 2 });
    expect(allot([2, 1, 8], 20)).toEqual({ counts: [2, 1, 8], generated: 9 });
  });
});

describe('FUZZ_SEED and FUZZ_BUDGET', () => {
  it('reads them, and draws a fresh seed when none is set', () => {
    expect(fuzzSettings({ FUZZ_SEED: '123', FUZZ_BUDGET: 'all' })).toEqual({ seed: 123, budget: 'all' });
    expect(fuzzSettings({ FUZZ_SEED: '0', FUZZ_BUDGET: '50' })).toEqual({ seed: 0, budget: 50 });
    expect(fuzzSettings({}).budget).toBe(DEFAULT_FUZZ_BUDGET);
    const seeds = new Set(Array.from({ length: 5 }, () => fuzzSettings({}).seed));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it.each([{ FUZZ_SEED: 'abc' }, { FUZZ_SEED: '-1' }, { FUZZ_BUDGET: '0' }, { FUZZ_BUDGET: 'many' }])('refuses %p', (env) => {
    expect(() => fuzzSettings(env)).toThrow(/FUZZ_(SEED|BUDGET) must be/);
  });
});

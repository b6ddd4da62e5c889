import { AuthorizationAction, ValidDecisionRequest } from '@lp/contracts';
import { AbacCondition, AbacField, AbacOperator, AbacRule, AbacVerdict } from './abac-rule';
import { AbacEvaluator, abacConditionHolds, orderAbacRules } from './abac.evaluator';
import { application, contextOf, delegated, request, TENANT, user } from '../../test/decision.fixtures';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';

function rule(id: string, priority: number, verdict: AbacVerdict, conditions: AbacCondition[] = [], extra: Partial<AbacRule> = {}): AbacRule {
  return { id, priority, verdict, conditions, ...extra };
}

async function evaluate(rules: AbacRule[], req: ValidDecisionRequest = request(user('alice'), AuthorizationAction.View)) {
  const facts = new InMemoryPolicyFacts();
  for (const r of rules) facts.putAbacRule(TENANT, r);
  return new AbacEvaluator(facts).evaluate(contextOf(req));
}

const approve = request(user('alice'), AuthorizationAction.Approve, {
  module: 'billing',
  resourceType: 'invoice',
  status: 'submitted',
  amount: 12_500.5,
  sensitivity: 'high',
  owner: 'bob',
  officeId: 'o1',
});

describe('AbacEvaluator', () => {
  it('enumerations keep their persisted integers (spec §2)', () => {
    expect({ Allow: AbacVerdict.Allow, Deny: AbacVerdict.Deny }).toEqual({ Allow: 1, Deny: 2 });
    expect([AbacOperator.Equals, AbacOperator.NotEquals, AbacOperator.In, AbacOperator.NotIn, AbacOperator.GreaterThan]).toEqual([1, 2, 3, 4, 5]);
    expect([AbacOperator.GreaterThanOrEqual, AbacOperator.LessThan, AbacOperator.LessThanOrEqual, AbacOperator.Exists, AbacOperator.NotExists]).toEqual([
      6, 7, 8, 9, 10,
    ]);
    expect([AbacField.ResourceStatus, AbacField.ResourceAmount, AbacField.ResourceSensitivity, AbacField.ResourceOwner, AbacField.ResourceOffice]).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect([AbacField.CallerKind, AbacField.CallerIsOwner, AbacField.CallerSubject, AbacField.CallerClientId, AbacField.CallerActor]).toEqual([
      10, 11, 12, 13, 14,
    ]);
  });

  describe('spec table', () => {
    it('is Neutral when the tenant has no rules', async () => {
      const outcome = await evaluate([]);
      expect(outcome.result).toEqual({ evaluator: 'ABAC', verdict: 'Neutral', reason: 'no ABAC rules for the tenant' });
    });

    it('is Neutral when no rule condition matches', async () => {
      const outcome = await evaluate(
        [rule('r1', 1, AbacVerdict.Deny, [{ field: AbacField.ResourceStatus, operator: AbacOperator.Equals, value: 'closed' }])],
        approve,
      );
      expect(outcome.result).toEqual({ evaluator: 'ABAC', verdict: 'Neutral', reason: 'no ABAC rule matched (1 considered)' });
    });

    it('allows when the first matching rule says Allow, with its obligations', async () => {
      const outcome = await evaluate(
        [
          rule('r1', 1, AbacVerdict.Allow, [{ field: AbacField.ResourceStatus, operator: AbacOperator.Equals, value: 'submitted' }], {
            name: 'submitted invoices',
            obligations: ['log-access'],
          }),
        ],
        approve,
      );
      expect(outcome.result).toEqual({
        evaluator: 'ABAC',
        verdict: 'Allow',
        reason: 'rule r1 "submitted invoices" matched: Allow',
        obligations: ['log-access'],
      });
    });

    it('denies when the first matching rule says Deny, ignoring later Allow rules', async () => {
      const outcome = await evaluate(
        [
          rule('allow-all', 5, AbacVerdict.Allow),
          rule('big', 1, AbacVerdict.Deny, [{ field: AbacField.ResourceAmount, operator: AbacOperator.GreaterThan, value: 10_000 }]),
        ],
        approve,
      );
      expect(outcome.result).toEqual({ evaluator: 'ABAC', verdict: 'Deny', reason: 'rule big matched: Deny' });
      expect(outcome.inputs).toEqual({ rules: [{ ruleId: 'big', priority: 1, verdict: AbacVerdict.Deny, check: 'matched' }], notReached: 1 });
    });

    it('fails closed with a Deny when the rule store fails', async () => {
      const facts = new InMemoryPolicyFacts();
      facts.putAbacRule(TENANT, rule('allow-all', 1, AbacVerdict.Allow));
      facts.failStore('abacRules');
      const outcome = await new AbacEvaluator(facts).evaluate(contextOf(approve));
      expect(outcome.result).toEqual({ evaluator: 'ABAC', verdict: 'Deny', reason: 'ABAC rule store unavailable (fail-closed)' });
      expect(outcome.storeFailure).toBe('abacRules');
    });
  });

  describe('priority order', () => {
    it('tries lower priority numbers first, whatever order the store returns', async () => {
      const rules = [rule('late', 20, AbacVerdict.Deny), rule('early', 10, AbacVerdict.Allow)];
      expect((await evaluate(rules)).result.reason).toBe('rule early matched: Allow');
      expect((await evaluate([...rules].reverse())).result.reason).toBe('rule early matched: Allow');
    });

    it('breaks priority ties by rule id', async () => {
      expect((await evaluate([rule('b', 1, AbacVerdict.Allow), rule('a', 1, AbacVerdict.Deny)])).result.reason).toBe('rule a matched: Deny');
    });

    it('puts a rule with a non-finite priority first', () => {
      const ordered = orderAbacRules([rule('ok', 1, AbacVerdict.Allow), rule('nan', Number.NaN, AbacVerdict.Deny)]);
      expect(ordered.map((r) => r.id)).toEqual(['nan', 'ok']);
    });
  });

  describe('filters', () => {
    it('applies a rule only to the listed actions', async () => {
      const deleteOnly = rule('no-delete', 1, AbacVerdict.Deny, [], { actions: [AuthorizationAction.Delete] });
      expect((await evaluate([deleteOnly], request(user(), AuthorizationAction.View))).result.verdict).toBe('Neutral');
      expect((await evaluate([deleteOnly], request(user(), AuthorizationAction.Delete))).result.verdict).toBe('Deny');
    });

    it('applies a rule only to the listed modules and resource types (case-insensitively)', async () => {
      const invoices = rule('inv', 1, AbacVerdict.Deny, [], { modules: ['Billing'], resourceTypes: ['INVOICE'] });
      expect((await evaluate([invoices], approve)).result.verdict).toBe('Deny');
      expect((await evaluate([invoices], request(user(), AuthorizationAction.Approve, { module: 'billing', resourceType: 'payment' }))).result.verdict).toBe(
        'Neutral',
      );
      expect((await evaluate([invoices], request(user(), AuthorizationAction.Approve, { module: 'cases', resourceType: 'invoice' }))).result.verdict).toBe(
        'Neutral',
      );
    });

    it('treats an empty filter as "any"', async () => {
      const any = rule('any', 1, AbacVerdict.Allow, [], { actions: [], modules: [], resourceTypes: [] });
      expect((await evaluate([any], approve)).result.verdict).toBe('Allow');
    });
  });

  describe('conditions', () => {
    const holds = (field: AbacField, operator: AbacOperator, value: AbacCondition['value'], req: ValidDecisionRequest = approve) =>
      abacConditionHolds({ field, operator, value }, req);

    it.each([
      [AbacField.ResourceStatus, AbacOperator.Equals, 'submitted', true],
      [AbacField.ResourceStatus, AbacOperator.Equals, 'Submitted', false],
      [AbacField.ResourceStatus, AbacOperator.NotEquals, 'closed', true],
      [AbacField.ResourceStatus, AbacOperator.NotEquals, 'submitted', false],
      [AbacField.ResourceSensitivity, AbacOperator.In, ['high', 'secret'], true],
      [AbacField.ResourceSensitivity, AbacOperator.In, ['low'], false],
      [AbacField.ResourceSensitivity, AbacOperator.NotIn, ['low'], true],
      [AbacField.ResourceSensitivity, AbacOperator.NotIn, ['high'], false],
      [AbacField.ResourceAmount, AbacOperator.GreaterThan, 12_500, true],
      [AbacField.ResourceAmount, AbacOperator.GreaterThan, 12_500.5, false],
      [AbacField.ResourceAmount, AbacOperator.GreaterThanOrEqual, 12_500.5, true],
      [AbacField.ResourceAmount, AbacOperator.LessThan, 12_500.5, false],
      [AbacField.ResourceAmount, AbacOperator.LessThan, 20_000, true],
      [AbacField.ResourceAmount, AbacOperator.LessThanOrEqual, 12_500.5, true],
      [AbacField.ResourceOwner, AbacOperator.Equals, 'bob', true],
      [AbacField.ResourceOffice, AbacOperator.In, ['o1', 'o2'], true],
      [AbacField.CallerKind, AbacOperator.Equals, 'user', true],
      [AbacField.CallerSubject, AbacOperator.Equals, 'alice', true],
      [AbacField.CallerIsOwner, AbacOperator.Equals, false, true],
      [AbacField.CallerIsOwner, AbacOperator.Equals, true, false],
      [AbacField.ResourceStatus, AbacOperator.Exists, undefined, true],
      [AbacField.ResourceStatus, AbacOperator.NotExists, undefined, false],
    ])('field %i operator %i value %j holds: %s', (field, operator, value, expected) => {
      expect(holds(field, operator, value)).toBe(expected);
    });

    it('never lets a missing fact satisfy a comparison; only NotExists matches it', () => {
      const bare = request(user('alice'), AuthorizationAction.View);
      for (const operator of [AbacOperator.Equals, AbacOperator.NotEquals, AbacOperator.In, AbacOperator.NotIn]) {
        expect(holds(AbacField.ResourceStatus, operator, operator >= AbacOperator.In ? ['x'] : 'x', bare)).toBe(false);
      }
      expect(holds(AbacField.ResourceAmount, AbacOperator.LessThan, 1e9, bare)).toBe(false);
      expect(holds(AbacField.CallerIsOwner, AbacOperator.Equals, false, bare)).toBe(false);
      expect(holds(AbacField.ResourceStatus, AbacOperator.Exists, undefined, bare)).toBe(false);
      expect(holds(AbacField.ResourceStatus, AbacOperator.NotExists, undefined, bare)).toBe(true);
    });

    it('reads caller attributes of application and delegated callers', () => {
      const app = request(application('billing-sync'), AuthorizationAction.View, { owner: 'billing-sync' });
      expect(holds(AbacField.CallerClientId, AbacOperator.Equals, 'billing-sync', app)).toBe(true);
      expect(holds(AbacField.CallerKind, AbacOperator.Equals, 'application', app)).toBe(true);
      const act = request(delegated('alice', 'bob'), AuthorizationAction.View, { owner: 'alice' });
      expect(holds(AbacField.CallerActor, AbacOperator.Equals, 'bob', act)).toBe(true);
      expect(holds(AbacField.CallerIsOwner, AbacOperator.Equals, true, act)).toBe(true);
    });

    it('requires every condition of a rule to hold', async () => {
      const both = rule('both', 1, AbacVerdict.Allow, [
        { field: AbacField.ResourceStatus, operator: AbacOperator.Equals, value: 'submitted' },
        { field: AbacField.CallerIsOwner, operator: AbacOperator.Equals, value: true },
      ]);
      expect((await evaluate([both], approve)).result.verdict).toBe('Neutral');
      expect((await evaluate([both], { ...approve, resource: { ...approve.resource, owner: 'alice' } })).result.verdict).toBe('Allow');
    });
  });

  describe('malformed rules fail closed', () => {
    it.each([
      ['unknown verdict 0', rule('r', 1, 0 as AbacVerdict), /unknown verdict 0/],
      [
        'unknown operator',
        rule('r', 1, AbacVerdict.Allow, [{ field: AbacField.ResourceStatus, operator: 99 as AbacOperator, value: 'x' }]),
        /unknown operator 99/,
      ],
      ['unknown field', rule('r', 1, AbacVerdict.Allow, [{ field: 42 as AbacField, operator: AbacOperator.Equals, value: 'x' }]), /unknown field 42/],
      [
        'ordering a string field',
        rule('r', 1, AbacVerdict.Allow, [{ field: AbacField.ResourceStatus, operator: AbacOperator.GreaterThan, value: 3 }]),
        /orders a string field/,
      ],
      [
        'wrong value type',
        rule('r', 1, AbacVerdict.Allow, [{ field: AbacField.ResourceAmount, operator: AbacOperator.Equals, value: '100' }]),
        /needs a number value/,
      ],
      ['In without a list', rule('r', 1, AbacVerdict.Allow, [{ field: AbacField.ResourceStatus, operator: AbacOperator.In, value: 'open' }]), /needs an array/],
    ])('%s → Deny when the rule is reached', async (_, bad, problem) => {
      const outcome = await evaluate([bad, rule('later-allow', 9, AbacVerdict.Allow)], approve);
      expect(outcome.result.verdict).toBe('Deny');
      expect(outcome.result.reason).toMatch(problem);
      expect(outcome.result.reason).toMatch(/fail-closed/);
    });

    it('skips a rule with a malformed body when its filters exclude the request', async () => {
      const bad = rule('bad', 1, 0 as AbacVerdict, [], { actions: [AuthorizationAction.Delete] });
      expect((await evaluate([bad], approve)).result.verdict).toBe('Neutral');
    });

    it('denies every request on a malformed filter: it cannot say whom it targets', async () => {
      const bad = rule('bad', 1, AbacVerdict.Allow, [], { actions: ['Launch' as AuthorizationAction] });
      expect((await evaluate([bad], approve)).result).toMatchObject({ verdict: 'Deny', reason: expect.stringMatching(/unknown action/) });
    });

    it('decides by an earlier matching rule before a malformed later one is reached', async () => {
      const outcome = await evaluate([rule('first', 1, AbacVerdict.Allow), rule('bad', 2, 0 as AbacVerdict)], approve);
      expect(outcome.result.verdict).toBe('Allow');
    });
  });
});

import { EvaluatorName, EvaluatorResult, EvaluatorVerdict } from '@lp/contracts';
import { mergeEvaluations } from './decision-merge';

function r(evaluator: EvaluatorName, verdict: EvaluatorVerdict, reason = `${evaluator} says ${verdict}`, obligations?: string[]): EvaluatorResult {
  return { evaluator, verdict, reason, ...(obligations ? { obligations } : {}) };
}

describe('mergeEvaluations (spec §1 merge rules)', () => {
  it('rule 2: any Deny rejects, even against several Allows and wherever it stands', () => {
    for (const results of [
      [r('RBAC', 'Allow'), r('ABAC', 'Allow'), r('Feature', 'Deny')],
      [r('Feature', 'Deny'), r('RBAC', 'Allow'), r('ABAC', 'Allow')],
      [r('RBAC', 'Allow'), r('ReBAC', 'Deny'), r('AppScope', 'Neutral')],
    ]) {
      expect(mergeEvaluations(results)).toMatchObject({ outcome: 'Deny', permitted: false, rule: 'AnyDeny', obligations: [] });
    }
  });

  it('rule 3: otherwise one Allow permits, among Neutrals', () => {
    const merged = mergeEvaluations([r('RBAC', 'Neutral'), r('AppScope', 'Neutral'), r('ABAC', 'Neutral'), r('ReBAC', 'Allow'), r('Feature', 'Neutral')]);
    expect(merged).toEqual({ outcome: 'Permit', permitted: true, rule: 'AnyAllow', denialReasons: [], obligations: [] });
  });

  it('rule 4: all Neutral is NoMatchingPolicy, not permitted; so is an empty evaluator list', () => {
    const neutral = mergeEvaluations([r('RBAC', 'Neutral'), r('AppScope', 'Neutral'), r('ABAC', 'Neutral'), r('ReBAC', 'Neutral'), r('Feature', 'Neutral')]);
    expect(neutral).toEqual({ outcome: 'NoMatchingPolicy', permitted: false, rule: 'AllNeutral', denialReasons: [], obligations: [] });
    expect(mergeEvaluations([])).toMatchObject({ outcome: 'NoMatchingPolicy', permitted: false });
  });

  it('rule 5: order only orders the denial reasons and the obligations', () => {
    const abacDeny = r('ABAC', 'Deny', 'rule r1 matched: Deny');
    const featureDeny = r('Feature', 'Deny', 'feature chat disabled');
    expect(mergeEvaluations([abacDeny, featureDeny]).denialReasons).toEqual(['ABAC: rule r1 matched: Deny', 'Feature: feature chat disabled']);
    expect(mergeEvaluations([featureDeny, abacDeny]).denialReasons).toEqual(['Feature: feature chat disabled', 'ABAC: rule r1 matched: Deny']);
    expect(mergeEvaluations([featureDeny, abacDeny]).outcome).toBe(mergeEvaluations([abacDeny, featureDeny]).outcome);

    const a = r('ABAC', 'Allow', 'a', ['watermark']);
    const b = r('ReBAC', 'Allow', 'b', ['log-access', 'notify-owner']);
    expect(mergeEvaluations([a, b]).obligations).toEqual(['watermark', 'log-access', 'notify-owner']);
    expect(mergeEvaluations([b, a]).obligations).toEqual(['log-access', 'notify-owner', 'watermark']);
  });

  it('rule 5: the Feature evaluator denies from any position, first or last', () => {
    const others = [r('RBAC', 'Allow'), r('AppScope', 'Neutral'), r('ABAC', 'Allow'), r('ReBAC', 'Allow')];
    for (let position = 0; position <= others.length; position++) {
      const results = [...others];
      results.splice(position, 0, r('Feature', 'Deny'));
      expect(mergeEvaluations(results).outcome).toBe('Deny');
    }
  });

  it('collects no obligations when the outcome is not a Permit', () => {
    expect(mergeEvaluations([r('ABAC', 'Allow', 'a', ['watermark']), r('Feature', 'Deny')]).obligations).toEqual([]);
  });

  it('counts an unrecognised verdict as a Deny: a broken evaluator cannot permit', () => {
    const merged = mergeEvaluations([r('RBAC', 'Allow'), r('ABAC', 'allow' as EvaluatorVerdict, 'oops')]);
    expect(merged.outcome).toBe('Deny');
    expect(merged.denialReasons).toEqual(['ABAC: oops (unrecognised verdict "allow")']);
  });
});

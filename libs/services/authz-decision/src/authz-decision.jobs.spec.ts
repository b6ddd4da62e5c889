import { assertJobClosure, declaredJobHandlers } from '@lp/platform/jobs';
import { authzDecisionService } from './authz-decision.service-definition';

describe('authz-decision jobs', () => {
  it('closes: its decision audit retention is declared and bound once, nothing else is bound', () => {
    const handlers = declaredJobHandlers(authzDecisionService.modules);
    expect(handlers).toEqual([{ jobName: 'authz-decision.decision-audit-retention', boundBy: 'DecisionAuditRetention.run' }]);
    expect(() => assertJobClosure(authzDecisionService.name, authzDecisionService.jobs ?? [], handlers)).not.toThrow();
    expect(authzDecisionService.jobs?.map((j) => j.defaultSchedule)).toEqual([{ cron: '17 3 * * *' }]);
  });
});

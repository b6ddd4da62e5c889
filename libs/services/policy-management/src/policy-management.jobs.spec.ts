import { assertJobClosure, declaredJobHandlers } from '@lp/platform/jobs';
import { policyManagementService } from './policy-management.service-definition';

describe('policy-management jobs', () => {
  it('closes: every job of the definition has exactly one @JobHandler in its modules, and no handler is undeclared', () => {
    const handlers = declaredJobHandlers(policyManagementService.modules);
    expect(handlers.map((h) => `${h.jobName} <- ${h.boundBy}`).sort()).toEqual([
      'policy-management.change-log-retention <- PolicyManagementRetention.run',
      'policy-management.expire-grants <- GrantExpiry.run',
    ]);
    expect(() => assertJobClosure(policyManagementService.name, policyManagementService.jobs ?? [], handlers)).not.toThrow();
  });

  it('declares its own jobs under its name with the chosen defaults', () => {
    expect((policyManagementService.jobs ?? []).map((j) => [j.jobName, j.source, j.defaultSchedule, j.isCritical])).toEqual([
      ['policy-management.change-log-retention', 'policy-management', { cron: '17 3 * * *' }, false],
      ['policy-management.expire-grants', 'policy-management', { intervalSeconds: 60 }, true],
    ]);
  });
});

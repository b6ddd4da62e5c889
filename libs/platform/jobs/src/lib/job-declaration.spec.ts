import { jobDeclarationSchema } from '@lp/contracts';
import { declareJob } from './job-declaration';

const base = { service: 'policy-management', name: 'expire-grants', description: 'Ends grants', moduleName: 'GrantExpiryModule' };

describe('declareJob', () => {
  it('names the job {service}.{name}, takes the service as its source and fills the defaults', () => {
    const job = declareJob({ ...base, schedule: { intervalSeconds: 60 } });
    expect(job).toEqual({
      jobName: 'policy-management.expire-grants',
      source: 'policy-management',
      description: 'Ends grants',
      moduleName: 'GrantExpiryModule',
      isCritical: false,
      defaultSchedule: { intervalSeconds: 60 },
      timeoutSeconds: 300,
    });
    expect(jobDeclarationSchema.parse(job)).toEqual(job);
  });

  it('trims a cron default and keeps an unscheduled job unscheduled', () => {
    expect(declareJob({ ...base, schedule: { cron: '  17 3 * * *  ' } }).defaultSchedule).toEqual({ cron: '17 3 * * *' });
    expect(declareJob({ ...base, schedule: null, isCritical: true, timeoutSeconds: 30 })).toMatchObject({
      defaultSchedule: null,
      isCritical: true,
      timeoutSeconds: 30,
    });
  });

  it('refuses a name that is not dotted lower-case, naming it', () => {
    expect(() => declareJob({ ...base, name: 'Expire_Grants', schedule: null })).toThrow(/"policy-management\.Expire_Grants" must be dotted lower-case/);
    expect(() => declareJob({ ...base, service: '', schedule: null })).toThrow(/must be dotted lower-case/);
  });

  it('refuses a blank or overlong cron and a non-positive or fractional interval, naming the job', () => {
    expect(() => declareJob({ ...base, schedule: { cron: '   ' } })).toThrow(/policy-management\.expire-grants: cron must be 1 to 160 characters/);
    expect(() => declareJob({ ...base, schedule: { cron: '*'.repeat(161) } })).toThrow(/cron must be 1 to 160/);
    for (const intervalSeconds of [0, -5, 1.5]) {
      expect(() => declareJob({ ...base, schedule: { intervalSeconds } })).toThrow(
        /policy-management\.expire-grants: intervalSeconds must be a positive integer/,
      );
    }
  });
});

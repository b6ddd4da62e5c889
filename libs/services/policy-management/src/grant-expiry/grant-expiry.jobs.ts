import { declareJob } from '@lp/platform/jobs';

/**
 * `policy-management.expire-grants` (`GrantExpiry.run`). Every 60 s: decisions already stop
 * honouring a grant at its `expires_at`, so the job only makes the end visible (change log, events
 * for caches and consumers, the request's stored status); a minute keeps that record close to the
 * real end (a temporary grant lasts minutes to days) while an idle run costs one indexed query per table.
 */
export const expireGrantsJob = declareJob({
  service: 'policy-management',
  name: 'expire-grants',
  description:
    'Records the end of temporary grants and delegations past their expiry that are still recorded as active: marks them expired, logs each change and publishes its authorization event',
  moduleName: 'GrantExpiryModule',
  isCritical: true,
  schedule: { intervalSeconds: 60 },
  timeoutSeconds: 120,
});
